import type { MissedTicks } from "../model/plans.js";

/** What a scheduler does with a plan's due tick. */
export interface TickDecision {
  /** The tick the run stands for (its `scheduled_for`); null: no run (the ticks were missed and are skipped). */
  runFor: Date | null;
  /** Where the plan's next tick moves: the first after now (null: the cron fires no more). */
  next: Date | null;
  /** Whether ticks were found late: a run for them, if any, is `runFor`'s. */
  missed: boolean;
}

/**
 * Decides a plan's tick `due`, found at `now` (the database's clock). A tick found at most
 * `graceMs` after its time is on time and always runs: the earliest such tick is the run's,
 * and any tick between it and now goes with it (one run per look, however often the cron
 * fires). Ticks found later were missed (no server was running): with `skip` they start no
 * run; with `run_once` they start one together, for the first of them (`due`). The next tick
 * is always after now: nothing is caught up beyond that one run.
 *
 * `nextAfter(t)` is the schedule's first tick strictly after `t`.
 */
export function decideTick(nextAfter: (t: Date) => Date | null, due: Date, now: Date, graceMs: number, missed: MissedTicks): TickDecision {
  const windowStart = Math.max(due.getTime(), now.getTime() - graceMs);
  // `due` is a tick itself: when it is in the window, it is the first on-time tick.
  const onTime = windowStart === due.getTime() ? due : nextAfter(new Date(windowStart - 1));
  const next = nextAfter(now);
  if (onTime && onTime.getTime() <= now.getTime()) return { runFor: onTime, next, missed: onTime.getTime() > due.getTime() };
  return { runFor: missed === "run_once" ? due : null, next, missed: true };
}
