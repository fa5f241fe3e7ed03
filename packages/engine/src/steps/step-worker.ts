import { EventEmitter } from "node:events";
import { stepFields, type EngineLog } from "../engine-log.js";
import { LeaseLoop, leaseOwner } from "../lease-loop.js";
import type { Store } from "../store/store.js";
import type { StepClaim, StepKey, StepRow } from "../model/steps.js";
import { EngineShutdown, LeaseLost, SessionDeleted, StepCancelled } from "./hand-back.js";
import type { BegunRows } from "./step-attempt.js";

export interface StepWorkerOptions {
  /** How long a lease holds without renewal; a dead owner's steps are taken over after it. Default 15 s. */
  leaseMs?: number;
  /** How often a lease is renewed (and the session's state looked at). Default 2 s. */
  renewMs?: number;
  /** How often unheld running steps are looked for. Default 2 s. */
  sweepMs?: number;
  /** Steps followed at once by this process. Default 256. */
  capacity?: number;
  log?: EngineLog;
  /** Where this process runs parts on its own host (work-place.ts), recorded by the first claim of a step. */
  place?: string;
}

/**
 * Follows one claimed step to its end; aborting `signal` with a HandBack leaves it running.
 * Resolves with the step's row as it ended, when this owner recorded the end. `begun`: the
 * rows the step was begun with, when it was begun here.
 */
export type DriveStep = (step: StepRow, owner: string, signal: AbortSignal, begun?: BegunRows) => Promise<StepRow | null | undefined>;

/**
 * The steps this process follows. A step is taken by claiming its lease in the store, kept
 * by renewing it, and given up when the process stops (handed back at once) or dies (its
 * lease runs out, and another worker's sweep takes it). The store's conditional updates
 * make every claim and every end of a step exclusive, so nothing is followed twice.
 */
export class StepWorker {
  readonly owner = leaseOwner();
  readonly #store: Store;
  readonly #drive: DriveStep;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #capacity: number;
  readonly #log: EngineLog;
  readonly #place: string | undefined;
  readonly #following = new Map<string, { key: StepKey; abort: AbortController; done: Promise<void> }>();
  readonly #ended = new EventEmitter();
  readonly #loop: LeaseLoop;
  #stopped = false;

  constructor(store: Store, drive: DriveStep, options: StepWorkerOptions = {}) {
    this.#store = store;
    this.#drive = drive;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#renewMs = options.renewMs ?? 2_000;
    this.#capacity = options.capacity ?? 256;
    this.#log = options.log ?? (() => {});
    this.#place = options.place;
    this.#ended.setMaxListeners(0);
    this.#loop = new LeaseLoop({ look: () => this.sweep(), everyMs: options.sweepMs ?? 2_000, log: this.#log, what: "step sweep" });
  }

  /** Steps followed here now. */
  get active(): number {
    return this.#following.size;
  }

  /** Starts sweeping for steps nobody holds. */
  start(): void {
    if (!this.#stopped) this.#loop.start();
  }

  /** The lease a step begun for this worker is begun with. */
  get claim(): StepClaim {
    return { owner: this.owner, leaseMs: this.#leaseMs, place: this.#place };
  }

  /** Whether this worker would take one more step now. */
  get hasRoom(): boolean {
    return !this.#stopped && this.#following.size < this.#capacity;
  }

  /** Claims the step and follows it in the background; false when someone else holds it, it ended, or this worker is full. */
  async take(key: StepKey, begun?: BegunRows): Promise<boolean> {
    if (!this.hasRoom || this.#following.has(id(key))) return false;
    const step = await this.#store.leases.claim(key, this.owner, this.#leaseMs, this.#place);
    if (!step || this.#stopped || this.#following.has(id(key))) return false;
    this.#follow(step, begun);
    return true;
  }

  /**
   * Follows a step that was begun leased to this worker (Store.beginStep's claim): no claim
   * needed. False when this worker stopped meanwhile: then the lease runs out unrenewed, unless
   * the stop hands it back first, and another worker takes the step over.
   */
  adopt(step: StepRow, begun?: BegunRows): boolean {
    if (this.#stopped || step.owner !== this.owner || this.#following.has(id(step))) return false;
    this.#follow(step, begun);
    return true;
  }

  #follow(step: StepRow, begun: BegunRows | undefined): void {
    const key: StepKey = { execution_id: step.execution_id, step: step.step, attempt: step.attempt };
    const abort = new AbortController();
    // Cancelled before this process took it (its follower died, or it was handed back): stopped at once.
    if (step.cancel_requested) abort.abort(new StepCancelled(step.cancel_requested));
    const renewal = setInterval(() => void this.#renew(key, abort), this.#renewMs);
    let ended: StepRow | null | undefined;
    const done = this.#drive(step, this.owner, abort.signal, begun)
      .then((row) => void (ended = row))
      .catch((e: Error) => {
        if (!abort.signal.aborted) this.#log(`step ${id(key)} ended in error: ${e.message}`, { ...stepFields(key), level: "error" });
      })
      .finally(() => {
        clearInterval(renewal);
        this.#following.delete(id(key));
        this.#ended.emit(id(key), ended ?? undefined);
      });
    this.#following.set(id(key), { key, abort, done });
  }

  /** Takes every running step whose lease is free or ran out. */
  async sweep(): Promise<void> {
    const room = this.#capacity - this.#following.size;
    if (room <= 0) return;
    for (const key of await this.#store.leases.orphaned(room)) await this.take(key);
  }

  /** Whether this process follows the step now (onEnded then tells when it stops). */
  follows(key: StepKey): boolean {
    return this.#following.has(id(key));
  }

  /**
   * Tells when this process stops following the step (it ended, or was handed back): with
   * the step's row as it ended when this process recorded the end.
   */
  onEnded(key: StepKey, listener: (ended?: StepRow) => void): () => void {
    this.#ended.on(id(key), listener);
    return () => this.#ended.off(id(key), listener);
  }

  /** Ends the steps of these executions that this process follows: their session is being deleted. */
  async stopExecutions(executionIds: string[]): Promise<void> {
    const ids = new Set(executionIds);
    const stopping = [...this.#following.values()].filter((f) => ids.has(f.key.execution_id));
    for (const f of stopping) f.abort.abort(new SessionDeleted());
    await Promise.allSettled(stopping.map((f) => f.done));
  }

  /** Stops the step, when this process follows it: it ends failed with `reason`. False when it does not follow it. */
  cancel(key: StepKey, reason: string): boolean {
    const f = this.#following.get(id(key));
    f?.abort.abort(new StepCancelled(reason));
    return !!f;
  }

  /** Stops taking steps and hands back those it follows (they go on on their hosts), within `deadlineMs`. */
  async stop(deadlineMs = 5_000): Promise<void> {
    this.#stopped = true;
    void this.#loop.stop();
    const all = [...this.#following.values()];
    for (const f of all) f.abort.abort(new EngineShutdown());
    await Promise.race([Promise.allSettled(all.map((f) => f.done)), new Promise((r) => setTimeout(r, deadlineMs).unref())]);
    await this.#store.leases
      .release(this.owner)
      .catch((e: Error) => this.#log(`cannot hand steps back: ${e.message}; they are taken over when their leases run out`, { level: "warn" }));
  }

  async #renew(key: StepKey, abort: AbortController): Promise<void> {
    // A cancelled step keeps its lease while it is stopped on its hosts: its end is this process's to record.
    if (abort.signal.aborted && !(abort.signal.reason instanceof StepCancelled)) return;
    try {
      const lease = await this.#store.leases.renew(key, this.owner, this.#leaseMs);
      if (!lease) abort.abort(new LeaseLost());
      // A cancel asked before the session's DELETE (a plan run's cancel does both) is why the step stops.
      else if (lease.cancelRequested) abort.abort(new StepCancelled(lease.cancelRequested));
      else if (!lease.sessionActive) abort.abort(new SessionDeleted());
    } catch (e) {
      // The database is out: keep following; the lease holds a while, and the end is recorded once it is back.
      this.#log(`cannot renew the lease of step ${id(key)}: ${(e as Error).message}`, { ...stepFields(key), level: "warn" });
    }
  }
}

function id(key: StepKey): string {
  return `${key.execution_id}/${key.step}/${key.attempt}`;
}
