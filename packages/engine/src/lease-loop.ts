import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { EngineLog } from "./engine-log.js";

/** The owner a lease is held by: this process (`host:pid`) and which of its workers (a random tail). */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export interface LeaseLoopOptions {
  /** Looks once (claims what nobody holds, fires what is due); may answer how long to wait before the next look (a number of ms). */
  look: () => Promise<unknown>;
  /** The wait between looks when a look does not say. */
  everyMs: number;
  log: EngineLog;
  /** What failed, in the warning a failed look logs (`<what> failed: <message>`). */
  what: string;
}

/**
 * The loop of a worker that shares the database's work with the other processes (the step
 * worker, the run driver, the webhook deliverer, the change checker, the scheduler): it looks
 * now, then `everyMs` after each look ended, and again whenever it is woken. Looks never overlap:
 * a wake-up looks after the look under way. A failed look is logged and the loop goes on (the
 * database may be back at the next). Stopping lets the look under way end and starts no other.
 */
export class LeaseLoop {
  readonly #o: LeaseLoopOptions;
  #timer: NodeJS.Timeout | undefined;
  #looking: Promise<void> = Promise.resolve();
  #started = false;
  #stopped = false;

  constructor(options: LeaseLoopOptions) {
    this.#o = options;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Starts looking: at once (on the next turn of the event loop), then after each look. */
  start(): void {
    this.#started = true;
    this.#stopped = false;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.wake(), 0);
  }

  /** Looks now, after the look under way; resolves once this look has ended. Before `start`, it looks once. */
  wake(): Promise<void> {
    if (this.#stopped) return this.#looking;
    this.#looking = this.#looking.then(async () => {
      if (this.#stopped) return;
      let waitMs = this.#o.everyMs;
      try {
        const asked = await this.#o.look();
        if (typeof asked === "number") waitMs = asked;
      } catch (e) {
        this.#o.log(`${this.#o.what} failed: ${(e as Error).message}`, { level: "warn" });
      }
      if (this.#stopped || !this.#started) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => void this.wake(), waitMs);
    });
    return this.#looking;
  }

  /** Looks no more; resolves once the look under way has ended. */
  stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    return this.#looking;
  }

  /** Runs `work` in the loop's turn (no look at the same time), before any look asked after it. */
  queue(work: () => Promise<void>): void {
    this.#looking = this.#looking.then(work);
  }
}
