import type { EngineLog } from "../engine-log.js";
import { LeaseLoop } from "../lease-loop.js";
import type { PlanRuns } from "../plan-runs/plan-runs.js";
import type { DuePlan } from "../store/schedules-repository.js";
import type { Store } from "../store/store.js";
import { nextTick } from "./cron.js";
import { decideTick } from "./tick-decision.js";

export interface SchedulerOptions {
  /** How often due ticks are looked for (also woken at the earliest tick); default 5 s. */
  wakeMs?: number;
  /** How late a tick may be found and still run as on time (later it was missed); default twice `wakeMs`, at least 30 s. */
  graceMs?: number;
  /** The least time between two ticks of a plan's schedule: a plan whose cron fires more often is refused. Default 60 s. */
  minIntervalMs?: number;
  /**
   * The schedules' clock: when a tick is due, and from when a new or resumed schedule counts.
   * Unset (production), it is the database's `now()`, one clock for every server sharing it; a
   * test injects one (the same for each of its servers) to drive ticks without waiting for them.
   */
  clock?: () => Date;
}

export interface SchedulerCollaborators {
  store: Store;
  /** Records a tick's run as a client's POST records one, so a driver takes it up the same way. */
  planRuns: PlanRuns;
  log: EngineLog;
}

/** Due plans fired per look: more are taken at once by the next. */
const BATCH = 32;
/** The least wait between two looks while ticks are still due (a busy database should not be hammered). */
const MIN_WAIT_MS = 100;

/**
 * This process's scheduler of plans: it wakes every `wakeMs` (and at the earliest tick), and
 * fires each tick due by the database's clock, starting a plan run for it.
 *
 * Every process sharing the database runs one, and each tick starts one run: firing moves the
 * plan's `next_run_at` from the value read with a conditional UPDATE, in the transaction that
 * records the run, so one server wins and the others change nothing; the unique index on
 * (plan_id, scheduled_for) is a second guard. Nothing here is pg-boss's: its cron (`schedule`)
 * needs PostgreSQL and fires on its own clock, while this must also run on the embedded PGlite,
 * decide missed ticks (`skip` / `run_once`) from the plan, and record the run with the tick in
 * one transaction. Timing by the database's `now()` gives every server the same clock (a test may
 * inject another: `SchedulerOptions.clock`).
 */
export class Scheduler {
  readonly #c: SchedulerCollaborators;
  readonly #wakeMs: number;
  readonly #graceMs: number;
  readonly #clock: (() => Date) | undefined;
  readonly #loop: LeaseLoop;

  constructor(collaborators: SchedulerCollaborators, options: SchedulerOptions = {}) {
    this.#c = collaborators;
    this.#wakeMs = options.wakeMs ?? 5_000;
    this.#graceMs = options.graceMs ?? Math.max(2 * this.#wakeMs, 30_000);
    this.#clock = options.clock;
    this.#loop = new LeaseLoop({ look: () => this.#look(), everyMs: this.#wakeMs, log: collaborators.log, what: "the scheduler's look" });
  }

  /** Starts looking for due ticks, now and after each look. */
  start(): void {
    this.#loop.start();
  }

  /** Looks now (a schedule was made or resumed here), after the look under way. */
  wake(): void {
    void this.#loop.wake();
  }

  /** Stops looking; a look under way ends first (a tick it fires is recorded whole or not at all). */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Fires what is due; answers how long to wait for the next look (a failed look waits `wakeMs`: the database is out, say). */
  async #look(): Promise<number> {
    const { failed } = await this.fireDue();
    const untilEarliest = await this.#c.store.schedules.untilEarliest(this.#clock?.());
    // A tick that could not be fired is tried again at the next wake, not at once.
    return untilEarliest !== null && failed === 0 ? Math.min(this.#wakeMs, Math.max(MIN_WAIT_MS, untilEarliest)) : this.#wakeMs;
  }

  /**
   * Fires the ticks due now (a batch of them: the next look takes the rest at once); answers
   * how many runs this process started (ticks fired by another server are not counted) and how
   * many ticks could not be fired (left due, for the next wake).
   */
  async fireDue(): Promise<{ started: number; failed: number }> {
    let started = 0;
    let failed = 0;
    for (const plan of await this.#c.store.schedules.due(BATCH, this.#clock?.())) {
      if (this.#loop.stopped) break;
      try {
        if (await this.#fire(plan)) started++;
      } catch (e) {
        failed++;
        this.#c.log(`plan ${plan.id}: its tick of ${new Date(plan.next_run_at).toISOString()} could not be fired: ${(e as Error).message}`, {
          level: "warn",
        });
      }
    }
    return { started, failed };
  }

  /** Fires one plan's tick; true when this process started a run for it. */
  async #fire(due: DuePlan): Promise<boolean> {
    const { store, planRuns, log } = this.#c;
    const from = new Date(due.next_run_at);
    const decision = decideTick((t) => nextTick(due.schedule, t), from, new Date(due.now), this.#graceMs, due.schedule.missed);
    if (decision.runFor === null) {
      if (await store.schedules.fire(due.id, from, decision.next)) {
        log(`plan ${due.id}: ticks from ${from.toISOString()} were missed and are skipped; next at ${decision.next?.toISOString() ?? "never"}`);
      }
      return false;
    }
    const plan = await store.plans.get(due.id);
    // Deleted since it was read.
    if (!plan) return false;
    const runFor = decision.runFor;
    // The plan's previous run goes on: the tick is skipped (and counted), unless the plan allows overlap.
    if ((due.schedule.overlap ?? "skip") === "skip" && (await store.schedules.skipIfBusy(due.id, from, decision.next, runFor))) {
      log(`plan ${due.id}: its tick of ${runFor.toISOString()} is skipped: its previous run has not ended; next at ${decision.next?.toISOString() ?? "never"}`);
      return false;
    }
    const run = await planRuns.startScheduled(plan, runFor, (record) => store.schedules.fire(due.id, from, decision.next, record));
    if (!run) return false;
    const late = decision.missed ? ` (ticks from ${from.toISOString()} were missed)` : "";
    log(`plan ${due.id}: its tick of ${runFor.toISOString()} started run ${run.id}${late}; next at ${decision.next?.toISOString() ?? "never"}`);
    return true;
  }
}
