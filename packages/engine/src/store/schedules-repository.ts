import type { PlanSchedule } from "../model/plans.js";
import type { Db } from "./db.js";
import { planById } from "./sql/plans-sql.js";
import { advanceTick, duePlans, pauseSchedule, resumeSchedule, scheduleForUpdate, skipTickIfBusy, untilEarliestTick } from "./sql/schedules-sql.js";
import { run } from "./sql/sql.js";

/** A plan whose next tick is due, as a scheduler reads it. */
export interface DuePlan {
  id: string;
  schedule: PlanSchedule;
  next_run_at: Date;
  /** The database's clock when read: every scheduler's decisions are timed by it. */
  now: Date;
}

/**
 * The plans' schedules: which ticks are due, and who fires each. Every write is conditional on
 * what was read, so servers sharing the database fire each tick once (see Scheduler).
 */
export class SchedulesRepository {
  constructor(private readonly db: Db) {}

  /** The plans due by the database's clock, or by `now` (a scheduler's injected clock). */
  async due(limit: number, now?: Date): Promise<DuePlan[]> {
    return run<DuePlan>(this.db, duePlans(limit, now));
  }

  /** Milliseconds until the earliest tick of any schedule not paused (negative: due already); null when there is none. */
  async untilEarliest(now?: Date): Promise<number | null> {
    const ms = (await run<{ ms: number | null }>(this.db, untilEarliestTick(now)))[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  /**
   * Moves the plan's next tick from `from` to `to` and, in the same transaction, `record`s what the
   * tick starts. False when another server moved it first, or when `record` hit the one run a tick
   * may have (the unique index on (plan_id, scheduled_for)): then nothing is written.
   */
  async fire(planId: string, from: Date, to: Date | null, record?: (tx: Db) => Promise<void>): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        if ((await run(tx, advanceTick(planId, from, to))).length === 0) return false;
        await record?.(tx);
        return true;
      });
    } catch (e) {
      if ((e as { code?: string }).code === "23505") return false;
      throw e;
    }
  }

  /**
   * Skips the plan's tick `tick` (moving it from `from` to `to` and counting it) when a run of the
   * plan has not ended; false when none is going (or another server moved the tick first): then nothing is written.
   */
  async skipIfBusy(planId: string, from: Date, to: Date | null, tick: Date): Promise<boolean> {
    return (await run(this.db, skipTickIfBusy(planId, from, to, tick))).length > 0;
  }

  /** `missing`: no such plan; `unscheduled`: it has no schedule. */
  async pause(planId: string): Promise<"paused" | "missing" | "unscheduled"> {
    if ((await run(this.db, pauseSchedule(planId))).length > 0) return "paused";
    return (await run(this.db, planById(planId))).length ? "unscheduled" : "missing";
  }

  /**
   * Resumes a paused schedule from the database's now, or `now` (ticks while paused are not caught
   * up): `nextAfter` gives its next tick. A schedule not paused is left as it is.
   */
  async resume(
    planId: string,
    nextAfter: (schedule: PlanSchedule, now: Date) => Date | null,
    now?: Date,
  ): Promise<"resumed" | "running" | "missing" | "unscheduled"> {
    return this.db.transaction(async (tx) => {
      const [row] = await run<{ schedule: PlanSchedule | null; schedule_paused: boolean; now: Date }>(tx, scheduleForUpdate(planId, now));
      if (!row) return "missing";
      if (!row.schedule) return "unscheduled";
      if (!row.schedule_paused) return "running";
      await run(tx, resumeSchedule(planId, nextAfter(row.schedule, new Date(row.now))));
      return "resumed";
    });
  }
}
