import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { EngineLog } from "../engine-log.js";
import type { PlanRunRow } from "../model/plan-runs.js";
import type { Store } from "../store/store.js";
import { conductRun, type RunCollaborators } from "./run-conduct.js";
import { RunHandedBack, type RunLease } from "./run-lease.js";

export interface RunDriverOptions {
  /** How long a run's lease holds without renewal; a dead driver's runs are taken over after it. Default 15 s. */
  leaseMs?: number;
  /** How often a lease is renewed (and a cancellation seen). Default 2 s. */
  renewMs?: number;
  /** How often runs nobody drives are looked for. Default 2 s. */
  sweepMs?: number;
}

interface Held {
  lease: RunLease;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * This process's driver of plan runs: it claims the runs nobody drives (new, handed back, or
 * whose driver stopped renewing its lease) and conducts each while it holds it, as the step
 * worker does with steps. Every process sharing the database runs one; the lease makes one
 * of them the run's driver at a time.
 */
export class RunDriver {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly #store: Store;
  readonly #collaborators: RunCollaborators;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #sweepMs: number;
  readonly #log: EngineLog;
  readonly #held = new Map<string, Held>();
  #sweeper: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(collaborators: RunCollaborators, options: RunDriverOptions = {}) {
    this.#collaborators = collaborators;
    this.#store = collaborators.store;
    this.#log = collaborators.log;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#renewMs = options.renewMs ?? 2_000;
    this.#sweepMs = options.sweepMs ?? 2_000;
  }

  /** Starts looking for runs to drive, now and every `sweepMs`. */
  start(): void {
    const tick = () => {
      if (this.#stopped) return;
      this.wake();
      void this.#sweeping.finally(() => {
        if (!this.#stopped) this.#sweeper = setTimeout(tick, this.#sweepMs);
      });
    };
    this.#sweeper = setTimeout(tick, 0);
  }

  /** Looks for runs now (a run was just started or cancelled here), after the look under way. */
  wake(): void {
    if (this.#stopped) return;
    this.#sweeping = this.#sweeping.then(() => this.#sweep()).catch((e: Error) => this.#log(`plan run sweep failed: ${e.message}`, { level: "warn" }));
  }

  /** Stops driving: the runs held are let go at once (their steps go on), for another driver or this one restarted. */
  async stop(deadlineMs = 5_000): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#sweeper);
    const all = [...this.#held.values()];
    for (const h of all) h.abort.abort(new RunHandedBack("this process is stopping"));
    await Promise.race([Promise.allSettled(all.map((h) => h.done)), new Promise((r) => setTimeout(r, deadlineMs).unref())]);
    await this.#store.planRuns
      .release(this.owner)
      .catch((e: Error) => this.#log(`cannot hand plan runs back: ${e.message}; they are taken over when their leases run out`, { level: "warn" }));
  }

  async #sweep(): Promise<void> {
    for (const id of await this.#store.planRuns.unheld(16)) {
      if (this.#stopped || this.#held.has(id)) continue;
      const run = await this.#store.planRuns.claim(id, this.owner, this.#leaseMs);
      if (run && !this.#stopped) this.#drive(run);
    }
  }

  #drive(run: PlanRunRow): void {
    const abort = new AbortController();
    const lease = { runId: run.id, owner: this.owner, signal: abort.signal, cancelling: run.state === "cancelling" };
    const renewal = setInterval(() => void this.#renew(lease, abort), this.#renewMs);
    this.#log(`driving plan run ${run.id} of plan ${run.plan_id} (${run.state})`);
    const done = conductRun(this.#collaborators, lease, run)
      .catch((e: Error) => {
        if (!abort.signal.aborted) this.#log(`plan run ${run.id}: its driver failed: ${e.message}; it is taken up again`, { level: "error" });
      })
      .finally(async () => {
        clearInterval(renewal);
        this.#held.delete(run.id);
        // Let go (ended, or a failure above): a run not ended is taken up again at a next sweep.
        if (!abort.signal.aborted) await this.#store.planRuns.release(this.owner, run.id).catch(() => {});
      });
    this.#held.set(run.id, { lease, abort, done });
  }

  async #renew(lease: Held["lease"], abort: AbortController): Promise<void> {
    if (abort.signal.aborted) return;
    try {
      const state = await this.#store.planRuns.renew(lease.runId, this.owner, this.#leaseMs);
      if (state === null) abort.abort(new RunHandedBack("its lease was lost"));
      else if (state === "cancelling") lease.cancelling = true;
    } catch (e) {
      // The database is out: keep going; the lease holds a while.
      this.#log(`cannot renew the lease of plan run ${lease.runId}: ${(e as Error).message}`, { level: "warn" });
    }
  }
}
