import type { Db } from "../store/db.js";

/** One subscriber's side of the wake-ups: whether something happened since it last looked. */
export interface Waiter {
  /**
   * Resolves at the next wake-up, at once if one came since the last call, or after `ms`
   * anyway (the safety net for a wake-up lost with a dropped connection), or when `signal` aborts.
   */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * Fans the notifications of one database channel out to the subscribers of this process: a
 * single listening connection per process, however many streams are open. It starts listening
 * at the first subscriber; when listening fails, subscribers still look every `ms`.
 */
export class WakeUps {
  readonly #waiters = new Set<() => void>();
  #listening: Promise<unknown> | undefined;

  constructor(
    private readonly db: Db,
    private readonly channel: string,
  ) {}

  waiter(): Waiter {
    this.#listening ??= this.db
      .listen?.(this.channel, () => this.#wake())
      .catch(() => {
        // Retried at the next subscriber; meanwhile the polls cover it.
        this.#listening = undefined;
      });
    let pending = false;
    let release: (() => void) | undefined;
    const poke = () => {
      pending = true;
      release?.();
    };
    this.#waiters.add(poke);
    return {
      wait: (ms, signal) => {
        if (pending || signal.aborted) {
          pending = false;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener("abort", done);
            release = undefined;
            pending = false;
            resolve();
          };
          const timer = setTimeout(done, ms);
          signal.addEventListener("abort", done, { once: true });
          release = done;
        });
      },
      close: () => {
        this.#waiters.delete(poke);
        release?.();
      },
    };
  }

  #wake(): void {
    for (const poke of this.#waiters) poke();
  }
}
