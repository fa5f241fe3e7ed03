import { BenchwrightError } from "../../errors.js";
import { sleep as sleepOrAbort } from "../../transport/backoff.js";

/** Sleeps, or fails as a cancelled provider operation when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return sleepOrAbort(ms, signal).catch(() => {
    throw cancelled(signal);
  });
}

/** The failure of an operation the step's signal ended, saying why when the signal does (the session was deleted). */
export function cancelled(signal?: AbortSignal): BenchwrightError {
  const why = signal?.reason instanceof Error && signal.reason.name !== "AbortError" ? `: ${signal.reason.message}` : "";
  return new BenchwrightError("provider_failed", `The operation was cancelled${why}`);
}

/**
 * Calls `probe` until it returns a value (not undefined), sleeping between calls; fails
 * with `what` once `timeoutMs` has passed, so no wait is ever unbounded.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  opts: { timeoutMs: number; intervalMs: number; what: string; signal?: AbortSignal },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() + opts.intervalMs > deadline) {
      throw new BenchwrightError("provider_failed", `${opts.what} within ${Math.round(opts.timeoutMs / 1000)} s`);
    }
    await sleep(opts.intervalMs, opts.signal);
  }
}
