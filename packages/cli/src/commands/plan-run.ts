import type { PlanReport } from "@benchwright/sdk";
import { print, printJson, type Context } from "../context.js";
import { ExitCode } from "../exit-codes.js";
import { figure, spread } from "../figures.js";
import { codeMeasuredText } from "../branch-text.js";
import { ciEnvOf } from "../gate/ci-env.js";
import type { Interrupted } from "../interrupt.js";
import { matrixText } from "../plan-matrix.js";
import { followPlanRun } from "../plan-follow.js";
import { benchmarkText } from "../params-text.js";
import { table } from "../tables.js";
import { expansionText, readPlan } from "./plan.js";

export interface PlanRunOptions {
  /** How often the run is read while it goes on. */
  pollMs?: number;
}

/**
 * `benchwright plan run <plan.yaml>`: the plan stored (the server checks it first), one run of
 * it started (with the branch and commit of a CI's environment, for its points) and followed as
 * a live matrix of its cells (plan-follow.ts: Ctrl-C cancels it), and its ranking printed at the end.
 */
export async function planRunCommand(file: string, options: PlanRunOptions, ctx: Context): Promise<number> {
  const { bw } = ctx;
  const plan = await bw.createPlan(await readPlan(file));
  if (!ctx.json) {
    print(expansionText(plan));
    print(`\nStored as plan ${plan.id}.`);
  }
  const ci = ciEnvOf(process.env);
  const { run, exitCode, signal } = await followPlanRun(ctx, plan.id, () => bw.startPlanRun(plan.id, { branch: ci.branch, commit: ci.commit }), options.pollMs);
  if (!run || exitCode !== ExitCode.ok) {
    if (ctx.json) printJson({ plan, run });
    return exitCode;
  }
  const report = await bw.getPlanRunReport(plan.id, run.id);
  if (ctx.json) printJson({ plan, run, report });
  else {
    print(`\n${matrixText(run, process.stdout.columns || 100)}`);
    const code = codeMeasuredText(run);
    if (code) print(`\nCode measured: ${code}`);
    print(`\n${rankingText(report)}`);
    if (report.failures.length) print(`\n${failuresText(report)}`);
    print(`\nThe whole report: benchwright plan report ${run.id} --format html -o report.html`);
  }
  if (signal.aborted) return (signal.reason as Interrupted).exitCode;
  return run.state === "completed" && run.progress.failed === 0 ? ExitCode.ok : ExitCode.stepFailed;
}

/** The targets best first, with their geometric mean over the cells and its interval, and how many cells failed or were cancelled. */
export function rankingText(report: Pick<PlanReport, "targets" | "baseline" | "confidence">): string {
  const level = `${Math.round(report.confidence * 100)}%`;
  return table(
    ["RANK", "TARGET", "GEOMEAN vs BASELINE", `${level} INTERVAL`, "CELLS", "FAILED", "CANCELLED"],
    report.targets.map((t) => [
      t.rank === null ? "-" : String(t.rank),
      t.target + (t.target === report.baseline ? " (baseline)" : ""),
      t.geomean === null ? "-" : `${figure(t.geomean)}x`,
      t.geomean_ci_low === null || t.geomean_ci_high === null ? "-" : `${spread(t.geomean_ci_low)} .. ${spread(t.geomean_ci_high)}`,
      String(t.cells),
      String(t.failed),
      // A server from before the count had cancelled cells in FAILED.
      t.cancelled === undefined ? "-" : String(t.cancelled),
    ]),
  );
}

/** Each cell that did not end with figures: its state, its target and its benchmark with the params that tell it apart. */
export function failuresText(report: Pick<PlanReport, "failures">): string {
  return table(
    ["STATE", "TARGET", "BENCHMARK", "WHY"],
    report.failures.map((f) => [f.state, f.target, benchmarkText(f.tool, f.workload, f.params), f.error ?? ""]),
  );
}
