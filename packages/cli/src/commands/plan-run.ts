import type { PlanReport, PlanRun } from "@benchwright/sdk";
import { note, print, printJson, type Context } from "../context.js";
import { ExitCode } from "../exit-codes.js";
import { failureOf } from "../failure.js";
import { figure, spread } from "../figures.js";
import { type Interrupted, watchInterrupts } from "../interrupt.js";
import { MATRIX_LEGEND, matrixText, progressText } from "../plan-matrix.js";
import { createProgress } from "../progress.js";
import { benchmarkText } from "../params-text.js";
import { table } from "../tables.js";
import { expansionText, readPlan } from "./plan.js";

export interface PlanRunOptions {
  /** How often the run is read while it goes on. */
  pollMs?: number;
}

const ENDED = new Set(["completed", "failed", "cancelled"]);

/**
 * `benchwright plan run <plan.yaml>`: the plan stored (the server checks it first), one run of
 * it started and followed as a live matrix of its cells, and its ranking printed at the end.
 * The first Ctrl-C cancels the run (its steps stopped, its sessions deleted, the results
 * kept) and waits for that; a second one quits at once, leaving the server to finish the cancel.
 */
export async function planRunCommand(file: string, options: PlanRunOptions, ctx: Context): Promise<number> {
  const { bw } = ctx;
  const plan = await bw.createPlan(await readPlan(file));
  if (!ctx.json) {
    print(expansionText(plan));
    print(`\nStored as plan ${plan.id}.`);
  }
  const progress = createProgress(!ctx.json);
  const interrupts = watchInterrupts((signal) => progress.log(`\n${signal}: cancelling the run (again to quit at once)\n`));
  const { signal } = interrupts;
  let run: PlanRun | undefined;
  let exitCode: number = ExitCode.ok;
  try {
    run = await bw.startPlanRun(plan.id);
    progress.start(`run ${run.id}`);
    let shown = "";
    let cancelAsked = false;
    while (!ENDED.has(run.state)) {
      if (signal.aborted && !cancelAsked) {
        cancelAsked = true;
        run = await bw.cancelPlanRun(plan.id, run.id);
      }
      await sleep(options.pollMs ?? 1000);
      run = await bw.getPlanRun(plan.id, run.id);
      shown = show(progress, run, shown);
    }
    progress.stop();
  } catch (e) {
    progress.stop();
    const failure = failureOf(e, ctx.url);
    note(`error: ${failure.message}`);
    exitCode = failure.exitCode;
  } finally {
    interrupts.dispose();
  }
  if (!run || exitCode !== ExitCode.ok) {
    if (ctx.json) printJson({ plan, run });
    return exitCode;
  }
  const report = await bw.getPlanRunReport(plan.id, run.id);
  if (ctx.json) printJson({ plan, run, report });
  else {
    print(`\n${matrixText(run, process.stdout.columns || 100)}`);
    print(`\n${rankingText(report)}`);
    if (report.failures.length) print(`\n${failuresText(report)}`);
    print(`\nThe whole report: benchwright plan report ${run.id} --format html -o report.html`);
  }
  if (signal.aborted) return (signal.reason as Interrupted).exitCode;
  return run.state === "completed" && run.progress.failed === 0 ? ExitCode.ok : ExitCode.stepFailed;
}

/** The matrix on a terminal, redrawn in place; elsewhere a line each time the counts change. */
function show(progress: ReturnType<typeof createProgress>, run: PlanRun, shown: string): string {
  const interactive = Boolean(process.stderr.isTTY);
  const text = interactive ? `run ${run.id}\n${matrixText(run, process.stderr.columns || 100)}\n${MATRIX_LEGEND}` : progressText(run);
  if (text !== shown) progress.update(text);
  return text;
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
