import { Cron } from "croner";
import type { PlanSchedule } from "../model/plans.js";

/**
 * A schedule's cron, read by croner in its time zone (daylight saving included). Only
 * evaluated here, never started: the Scheduler fires ticks from the database. Throws on a
 * pattern or time zone croner cannot read.
 */
export function cronOf({ cron, timezone }: Pick<PlanSchedule, "cron" | "timezone">): Cron {
  return new Cron(cron, { timezone, mode: "5-or-6-parts" });
}

/** The schedule's first tick strictly after `after`; null when it fires no more. */
export function nextTick(schedule: Pick<PlanSchedule, "cron" | "timezone">, after: Date): Date | null {
  return cronOf(schedule).nextRun(after);
}
