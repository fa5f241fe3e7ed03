import type { EngineLog } from "../engine-log.js";
import { LeaseLoop, leaseOwner } from "../lease-loop.js";
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
  readonly owner = leaseOwner();
  readonly #store: Store;
  readonly #collaborators: RunCollaborators;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #log: EngineLog;
  readonly #held = new Map<string, Held>();
  readonly #loop: LeaseLoop;
  #stopped = false;

  constructor(collaborators: RunCollaborators, options: RunDriverOptions = {}) {
    this.#collaborators = collaborators;
    this.#store = collaborators.store;
    this.#log = collaborators.log;
    this.#leaseMs = options.leaseMs ?? 15_000;
    this.#renewMs = options.renewMs ?? 2_000;
    this.#loop = new LeaseLoop({ look: () => this.#sweep(), everyMs: options.sweepMs ?? 2_000, log: this.#log, what: "plan run sweep" });
  }

  /** Starts looking for runs to drive, now and every `sweepMs`. */
  start(): void {
    if (!this.#stopped) this.#loop.start();
  }

  /** Looks for runs now (a run was just started or cancelled here), after the look under way. */
  wake(): void {
    if (!this.#stopped) void this.#loop.wake();
  }

  /** Stops driving: the runs held are let go at once (their steps go on), for another driver or this one restarted. */
  async stop(deadlineMs = 5_000): Promise<void> {
    this.#stopped = true;
    void this.#loop.stop();
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
