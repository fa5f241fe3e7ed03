export interface BackoffOptions {
  /** Connection attempts in all, the first included. */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { attempts: 6, initialDelayMs: 250, maxDelayMs: 8000 };

/** The wait before attempt `n` (1 for the first retry): doubling, capped. */
export function backoffDelay(options: BackoffOptions, n: number): number {
  return Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (n - 1));
}

/** Between half and all of `ms`: clients refused together must not all come back together. */
export function jittered(ms: number): number {
  return ms / 2 + Math.random() * (ms / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
