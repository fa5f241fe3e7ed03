/**
 * What a run's driver knows of its hold on the run, kept up by the renewals: the signal is
 * aborted when the hold ends (the lease lost, or this process stopping), and `cancelling` is
 * set once a DELETE asked the run to stop.
 */
export interface RunLease {
  readonly runId: string;
  readonly owner: string;
  readonly signal: AbortSignal;
  /** Set by the renewals, or by the driver when it reads the run's state itself. */
  cancelling: boolean;
}

/** Why a driver let go of a run it held: it goes on elsewhere (or here, once restarted). */
export class RunHandedBack extends Error {
  constructor(reason: string) {
    super(`plan run handed back: ${reason}`);
    this.name = "RunHandedBack";
  }
}

/** Resolves with `promise`, or rejects once `signal` is aborted, whichever comes first (the promise goes on). */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
