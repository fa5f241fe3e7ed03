import { BenchwrightError, isBenchwrightError } from "../errors.js";
import type { StepHandle } from "../runner/step.js";
import { attachStep } from "../runner/step-control.js";
import type { StepRunner } from "../runner/step-runner.js";
import type { Transport } from "../transport/transport.js";
import { TAIL_BYTES } from "./outcome.js";

/** The handle of a step already launched in `dir` (known, or read from the host), if any. */
export async function launched(transport: () => Transport, dir: string, pgid: number | null): Promise<StepHandle | undefined> {
  if (pgid && pgid > 1) return { dir, pgid };
  const t = transport();
  try {
    return await attachStep(t, dir);
  } finally {
    t.release();
  }
}

/**
 * A failed step's error with the ends of its stdout and its stderr, each on its own, as the
 * host recorded them (the log interleaves both). A host that cannot tell leaves them out:
 * the error itself matters more than its details.
 */
export async function withOutputTails(runner: StepRunner, e: unknown, transport: () => Transport, dir: string, signal: AbortSignal): Promise<unknown> {
  if (!isBenchwrightError(e)) return e;
  const t = transport();
  try {
    const tails = await runner.outputTails(t, dir, TAIL_BYTES, signal);
    return new BenchwrightError(e.code, e.detail, { ...e.extras, ...tails }, { cause: e.cause });
  } catch {
    return e;
  } finally {
    t.release();
  }
}
