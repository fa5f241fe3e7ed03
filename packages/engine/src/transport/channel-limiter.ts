/**
 * A counting semaphore: OpenSSH refuses more than MaxSessions (10 by default) channels
 * per connection, so callers beyond the limit wait their turn instead of failing.
 */
export class ChannelLimiter {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error("A channel limit must be at least 1");
  }

  get active(): number {
    return this.#active;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.max) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        this.#active++;
        resolve(this.#releaser());
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(grant);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#waiting.shift()?.();
    };
  }
}
