import type { Sql } from "./sql.js";

/**
 * The schedules' now, as SQL: the database's `now()` (one clock for every server), unless a
 * scheduler's clock gave one (`$n`, a test's injected time; NULL falls back to the database's).
 */
const nowOr = (param: string) => `coalesce(${param}::timestamptz, now())`;

/** The plans whose schedule says a tick is due by the schedules' clock (the database's, or `now`), earliest first, with that clock's now. */
export function duePlans(limit: number, now?: Date): Sql {
  return {
    text: `SELECT id, schedule, next_run_at, ${nowOr("$2")} AS now FROM plans
       WHERE schedule IS NOT NULL AND NOT schedule_paused AND next_run_at <= ${nowOr("$2")} ORDER BY next_run_at LIMIT $1`,
    values: [limit, now ?? null],
  };
}

/** Milliseconds until the earliest tick of any schedule not paused (negative: due already; null: none), by the database's clock or `now`. */
export function untilEarliestTick(now?: Date): Sql {
  return {
    text: `SELECT (EXTRACT(EPOCH FROM (min(next_run_at) - ${nowOr("$1")})) * 1000)::float8 AS ms FROM plans
       WHERE schedule IS NOT NULL AND NOT schedule_paused`,
    values: [now ?? null],
  };
}

/**
 * Moves a plan's next tick from `from` (as read) to `to`: only the first of the servers that
 * read `from` moves it, so only it fires the tick. Answers the plan's id when moved.
 */
export function advanceTick(planId: string, from: Date, to: Date | null): Sql {
  return {
    text: `UPDATE plans SET next_run_at = $3 WHERE id = $1 AND next_run_at = $2 AND schedule IS NOT NULL AND NOT schedule_paused RETURNING id`,
    values: [planId, from, to],
  };
}

/**
 * Moves a plan's next tick from `from` to `to` as advanceTick does, and counts `tick` as skipped,
 * only while a run of the plan has not ended (in one statement: the tick is skipped or left as
 * it was, never half). Answers the plan's id when it skipped it.
 */
export function skipTickIfBusy(planId: string, from: Date, to: Date | null, tick: Date): Sql {
  return {
    text: `UPDATE plans SET next_run_at = $3, schedule_skipped = schedule_skipped + 1, schedule_last_skipped = $4
       WHERE id = $1 AND next_run_at = $2 AND schedule IS NOT NULL AND NOT schedule_paused
         AND EXISTS (SELECT 1 FROM plan_runs r WHERE r.plan_id = $1 AND r.state IN ('pending', 'running', 'cancelling'))
       RETURNING id`,
    values: [planId, from, to, tick],
  };
}

/** Pauses a plan's schedule: no tick until it is resumed. Answers the plan's id when it has a schedule. */
export function pauseSchedule(planId: string): Sql {
  return {
    text: "UPDATE plans SET schedule_paused = true, next_run_at = NULL WHERE id = $1 AND schedule IS NOT NULL RETURNING id",
    values: [planId],
  };
}

/** A plan's schedule and pause, held until the transaction ends, with the database's now (or `now`). */
export function scheduleForUpdate(planId: string, now?: Date): Sql {
  return { text: `SELECT schedule, schedule_paused, ${nowOr("$2")} AS now FROM plans WHERE id = $1 FOR UPDATE`, values: [planId, now ?? null] };
}

export function resumeSchedule(planId: string, next: Date | null): Sql {
  return { text: "UPDATE plans SET schedule_paused = false, next_run_at = $2 WHERE id = $1", values: [planId, next] };
}
