import type { GateCreate } from "@benchwright/sdk";
import { note, type Context } from "../context.js";
import { ExitCode, UsageError } from "../exit-codes.js";
import type { Interrupted } from "../interrupt.js";
import { ciEnvOf } from "./ci-env.js";

/** What a gate compares: executions (and, with a target of the same run, the executions it is compared with). */
export type ExecutionSubject = Pick<GateCreate, "execution_ids"> & { baselineExecutions?: string[] };

/** A gate's executions, or why the command ends without a gate (the run could not start or was interrupted). */
export type PlanGate = { subject: ExecutionSubject; failedCells: number } | { exitCode: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--executions a,b`: whole ids, comma-separated; anything else is a usage error naming it. */
export function executionIdsOf(flag: string, text: string): string[] {
  const ids = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.filter((id) => !UUID.test(id));
  if (ids.length === 0 || bad.length > 0)
    throw new UsageError(`${flag} ${text}: execution ids (whole), comma-separated${bad.length ? `; not one: ${bad.join(", ")}` : ""}`);
  return ids;
}

/**
 * `gate --plan plan.yaml`: the plan stored and run as `plan run` runs it (its matrix followed, Ctrl-C
 * cancels it), with the branch and commit of the flags or the CI's environment, which the points
 * of its cells record; then its completed cells are what is gated: every target's, or with
 * `baselineTarget` the other targets' against that one's. A cell that did not complete is noted
 * (and fails the gate, as a failed step does).
 */
export async function runPlanForGate(file: string, options: { branch?: string; commit?: string; baselineTarget?: string }, ctx: Context): Promise<PlanGate> {
  // Loaded by `gate --plan` alone: following a run needs ora, and a harness's gate (the usual CI job) starts without it.
  const [{ readPlan }, { followPlanRun }] = await Promise.all([import("../commands/plan.js"), import("../plan-follow.js")]);
  const { bw } = ctx;
  const plan = await bw.createPlan(await readPlan(file));
  if (options.baselineTarget && !plan.targets.some((t) => t.label === options.baselineTarget))
    throw new UsageError(`--baseline-target ${options.baselineTarget}: the plan's targets are ${plan.targets.map((t) => t.label).join(", ")}`);
  const ci = ciEnvOf(process.env);
  const branch = options.branch ?? ci.branch;
  const commit = options.commit ?? ci.commit;
  note(`plan ${plan.id}: ${plan.executions} execution${plan.executions === 1 ? "" : "s"}${branch ? ` on ${branch}` : ""}`);
  const { run, exitCode, signal } = await followPlanRun(ctx, plan.id, () => bw.startPlanRun(plan.id, { branch, commit }));
  if (signal.aborted) return { exitCode: (signal.reason as Interrupted).exitCode };
  if (!run || exitCode !== ExitCode.ok) return { exitCode };
  note(`plan run ${run.id}: ${run.state}`);
  const done = run.cells.filter((c) => c.state === "completed" && c.execution_id);
  const failed = run.cells.filter((c) => c.state !== "completed");
  for (const c of failed) note(`cell ${c.target} ${c.tool}/${c.workload}: ${c.state}${c.error ? `: ${c.error}` : ""}`);
  const ids = (cells: typeof done) => cells.map((c) => c.execution_id!);
  const gated = done.filter((c) => c.target !== options.baselineTarget);
  if (gated.length === 0) {
    note("no completed cell to gate");
    return { exitCode: ExitCode.stepFailed };
  }
  const subject: ExecutionSubject = { execution_ids: ids(gated) };
  if (options.baselineTarget) {
    subject.baselineExecutions = ids(done.filter((c) => c.target === options.baselineTarget));
    if (subject.baselineExecutions.length === 0) {
      note(`no completed cell of ${options.baselineTarget} to compare with`);
      return { exitCode: ExitCode.stepFailed };
    }
  }
  return { subject, failedCells: failed.length };
}
