import type { StepKey } from "../model/steps.js";
import type { StepQueue } from "./step-queue.js";

/** The embedded default's queue: one process, so a job goes straight to its own worker. */
export class InProcessQueue implements StepQueue {
  readonly kind = "in-process" as const;
  #take: ((job: StepKey) => Promise<void>) | undefined;
  readonly #waiting: StepKey[] = [];
  #stopped = false;

  get running(): boolean {
    return !this.#stopped;
  }

  async send(job: StepKey): Promise<void> {
    if (this.#take) this.#deliver(job);
    else this.#waiting.push(job);
  }

  async work(take: (job: StepKey) => Promise<void>): Promise<void> {
    this.#take = take;
    for (const job of this.#waiting.splice(0)) this.#deliver(job);
  }

  async depth(): Promise<number> {
    return this.#waiting.length;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#take = undefined;
  }

  #deliver(job: StepKey): void {
    const take = this.#take!;
    // Errors are the worker's to log; a job it could not take is found again by its sweep.
    queueMicrotask(() => void take(job).catch(() => {}));
  }
}
