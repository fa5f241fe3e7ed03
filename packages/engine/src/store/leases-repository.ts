import type { SessionState } from "../model/sessions.js";
import type { StepHandle, StepKey, StepRow } from "../model/steps.js";
import type { Db } from "./db.js";
import { claimStep, heldSteps, orphanedSteps, recordStepHandle, releaseLeases, renewLease } from "./sql/leases-sql.js";
import { run } from "./sql/sql.js";

/** The steps' leases: one owner follows a running step, and proves it is alive by renewing. */
export class LeasesRepository {
  constructor(private readonly db: Db) {}

  /** Takes a running step whose lease is free or has run out (its first claim records `place`); null when someone alive holds it or it ended. */
  async claim(key: StepKey, owner: string, leaseMs: number, place?: string): Promise<StepRow | null> {
    return (await run<StepRow>(this.db, claimStep(key, owner, leaseMs, place)))[0] ?? null;
  }

  /** Extends the lease; null when it was lost (taken over, or the step ended). Says whether the session is still active, and the cancel asked of the step. */
  async renew(key: StepKey, owner: string, leaseMs: number): Promise<LeaseState | null> {
    return leaseStateOf(await run<LeaseRow>(this.db, renewLease(key, owner, leaseMs)));
  }

  /** Hands a process's steps back: others may take them at once. `owner` unset frees every lease (a lone embedded server at start). */
  async release(owner?: string): Promise<number> {
    return (await run(this.db, releaseLeases(owner))).length;
  }

  /** Running steps of these executions whose owner is alive (its lease holds). */
  async held(executionIds: string[]): Promise<StepKey[]> {
    return run<StepKey>(this.db, heldSteps(executionIds));
  }

  /** Running steps that nobody holds: never claimed, handed back, or whose owner stopped renewing. */
  async orphaned(limit: number): Promise<StepKey[]> {
    return run<StepKey>(this.db, orphanedSteps(limit));
  }

  /**
   * Records which machine's part is under way and its detached process, so a new owner can
   * re-attach. Whether the step's session is still active, as the part is about to start; null
   * when this owner no longer holds a running step (taken over, or ended by a DELETE).
   */
  async recordHandle(key: StepKey, owner: string, handle: StepHandle): Promise<LeaseState | null> {
    return leaseStateOf(await run<LeaseRow>(this.db, recordStepHandle(key, owner, handle)));
  }
}

/** What a lease holder learns as it renews or records a handle: whether the step is to go on. */
export interface LeaseState {
  sessionActive: boolean;
  /** Set when a cancel was asked of the step: how its failure is to read. */
  cancelRequested: string | null;
}

type LeaseRow = { session_state: SessionState; cancel_requested: string | null };

function leaseStateOf(rows: LeaseRow[]): LeaseState | null {
  return rows[0] ? { sessionActive: rows[0].session_state === "active", cancelRequested: rows[0].cancel_requested ?? null } : null;
}
