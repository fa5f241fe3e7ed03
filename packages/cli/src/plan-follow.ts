import type { PlanRun } from "@benchwright/sdk";
import { note, type Context } from "./context.js";
import { ExitCode } from "./exit-codes.js";
import { failureOf } from "./failure.js";
import { watchInterrupts } from "./interrupt.js";
import { MATRIX_LEGEND, matrixText, progressText } from "./plan-matrix.js";
import { createProgress } from "./progress.js";

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** How a followed run ended: the run as last read (none when it could not start), the command's code so far, and whether the user interrupted it. */
export interface FollowedRun {
  run: PlanRun | undefined;
  exitCode: number;
  signal: AbortSignal;
}

/**
 * Starts a run (`start`) and follows it to its end as a live matrix of its cells (`plan run` and
 * `gate --plan`). The first Ctrl-C cancels the run (its steps stopped, its sessions deleted, the
 * results kept) and waits for that; a second one quits at once, leaving the server to finish the cancel.
 */
export async function followPlanRun(ctx: Context, planId: string, start: () => Promise<PlanRun>, pollMs = 1000): Promise<FollowedRun> {
  const { bw } = ctx;
  const progress = createProgress(!ctx.json);
  const interrupts = watchInterrupts((signal) => progress.log(`\n${signal}: cancelling the run (again to quit at once)\n`));
  const { signal } = interrupts;
  let run: PlanRun | undefined;
  let exitCode: number = ExitCode.ok;
  try {
    run = await start();
    progress.start(`run ${run.id}`);
    let shown = "";
    let cancelAsked = false;
    while (!ENDED.has(run.state)) {
      if (signal.aborted && !cancelAsked) {
        cancelAsked = true;
        run = await bw.cancelPlanRun(planId, run.id);
      }
      await sleep(pollMs);
      run = await bw.getPlanRun(planId, run.id);
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
  return { run, exitCode, signal };
}

/** The matrix on a terminal, redrawn in place; elsewhere a line each time the counts change. */
function show(progress: ReturnType<typeof createProgress>, run: PlanRun, shown: string): string {
  const interactive = Boolean(process.stderr.isTTY);
  const text = interactive ? `run ${run.id}\n${matrixText(run, process.stderr.columns || 100)}\n${MATRIX_LEGEND}` : progressText(run);
  if (text !== shown) progress.update(text);
  return text;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
