import type { ExecutionCreate } from "@benchwright/contract";
import { isBenchwrightError, PlanRunCancelled } from "../errors.js";
import type { CellChange, PlanCellState, PlanRunCellRow } from "../model/plan-runs.js";
import type { StepKind, StepRow } from "../model/steps.js";
import type { Store } from "../store/store.js";
import { sleep } from "../transport/backoff.js";
import { type RunLease, unlessAborted } from "./run-lease.js";

/** What a cell's execution and steps are made through: the engine's own operations, as a client's requests would. */
export interface CellCollaborators {
  store: Store;
  createExecution: (sessionId: string, body: ExecutionCreate, options: { id: string }) => Promise<unknown>;
  startStep: (kind: StepKind, execId: string) => Promise<{ execution_id: string; step: StepKind; attempt: number }>;
  waitForStep: (attempt: { execution_id: string; step: StepKind; attempt: number }) => Promise<unknown>;
}

export interface CellPlan {
  sessionId: string;
  repetitions: ExecutionCreate["repetitions"];
  /** More attempts a failed step gets. */
  retries: number;
  /** How long it waits before it asks again when a step is over its starter's step quota; default 1 s. */
  quotaWaitMs?: number;
  /** The run's branch and commit: its cells' executions show them as a client's run would. */
  branch?: string | null;
  commit?: string | null;
}

/** A cell's change, recorded only while this driver holds the run; null when it does not any more. */
export type RecordCell = (cell: PlanRunCellRow, change: CellChange) => Promise<PlanRunCellRow | null>;

/**
 * Drives one cell to its end: its execution made (with the id given at the run's creation),
 * then prepare and run through the step path, a failed step begun again up to `retries` times.
 *
 * What to do next is read each time from the execution's steps in the store, never from
 * memory: a driver that takes a cell over from a dead one waits for a step already begun and
 * begins only what was not (a step's begin is one transaction, so it either is there or not).
 * Every change of the cell is recorded before the step it announces is begun.
 */
export async function driveCell(c: CellCollaborators, lease: RunLease, plan: CellPlan, start: PlanRunCellRow, record: RecordCell): Promise<void> {
  let cell: PlanRunCellRow | null = start;
  const end = async (state: PlanCellState, error: string | null) => void (await record(cell!, { state, error }));
  if (cell.state === "pending") cell = await record(cell, { state: "preparing" });
  if (!cell) return;
  const execId = cell.execution_id;
  if (!(await c.store.executions.get(execId))) {
    if (lease.cancelling) return end("cancelled", CANCELLED);
    const body = {
      tool: cell.tool,
      workload: cell.workload,
      params: cell.params as ExecutionCreate["params"],
      repetitions: plan.repetitions,
      branch: plan.branch ?? null,
      commit: plan.commit ?? null,
    };
    try {
      await c.createExecution(plan.sessionId, body, { id: execId });
    } catch (e) {
      return end(lease.cancelling ? "cancelled" : "failed", lease.cancelling ? CANCELLED : `the execution could not be made: ${(e as Error).message}`);
    }
  }
  for (;;) {
    if (lease.signal.aborted) return;
    const steps = await c.store.steps.list([execId]);
    const next = nextStep(steps, plan.retries);
    if ("wait" in next) {
      await unlessAborted(
        c.waitForStep(next.wait).catch(() => {}),
        lease.signal,
      ).catch(() => {});
      continue;
    }
    if ("end" in next)
      return end(
        next.end !== "completed" && lease.cancelling ? "cancelled" : next.end,
        next.end === "completed" ? null : lease.cancelling ? CANCELLED : next.error,
      );
    if (lease.cancelling) return end("cancelled", CANCELLED);
    cell = await record(cell, { state: next.begin === "prepare" ? "preparing" : "running", attempts: steps.length + 1 });
    if (!cell) return;
    try {
      await unlessAborted(c.startStep(next.begin, execId), lease.signal);
    } catch (e) {
      if (lease.signal.aborted) return;
      // The cancel was written before this step could begin (seen here before the driver's next renewal).
      if (e instanceof PlanRunCancelled) lease.cancelling = true;
      // A server stopping, or the database out: the next look tells whether the step began.
      if (isBenchwrightError(e) && e.code === "unavailable") await sleep(1_000, lease.signal).catch(() => {});
      // Over the starter's step quota (BENCHWRIGHT_QUOTA_STEPS): the cell waits for room, as its own requests could not.
      else if (isBenchwrightError(e) && e.code === "quota_exceeded") await sleep(plan.quotaWaitMs ?? 1_000, lease.signal).catch(() => {});
      else return end(lease.cancelling ? "cancelled" : "failed", lease.cancelling ? CANCELLED : (e as Error).message);
    }
  }
}

const CANCELLED = "the run was cancelled";

type Next = { begin: StepKind } | { wait: StepRow } | { end: "completed" } | { end: "failed" | "cancelled"; error: string };

/** What a cell does next, from its execution's steps (oldest first). */
export function nextStep(steps: readonly StepRow[], retries: number): Next {
  const last = steps.at(-1);
  if (!last) return { begin: "prepare" };
  if (last.state === "running") return { wait: last };
  if (last.state === "succeeded") return last.step === "run" ? { end: "completed" } : { begin: "run" };
  // Someone cancelled the cell's step (POST /executions/{id}/cancel): a retry would undo what they asked.
  if (last.error_code === "step_cancelled") return { end: "cancelled", error: last.error ?? `${last.step} was cancelled` };
  const failures = steps.filter((s) => s.step === last.step && s.state === "failed").length;
  if (failures > retries) return { end: "failed", error: `${last.step} failed${failures > 1 ? ` ${failures} times` : ""}: ${last.error ?? "no reason given"}` };
  return { begin: last.step };
}
