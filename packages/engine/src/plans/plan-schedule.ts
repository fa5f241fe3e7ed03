import type { PlanSchedule, PlanScheduleCreate } from "../model/plans.js";
import { cronOf } from "../schedules/cron.js";
import type { PlanProblem } from "./plan-problems.js";

const MISSED = ["skip", "run_once"];

/**
 * A plan's schedule as it will be stored, its defaults filled in (UTC, missed ticks skipped),
 * with its first tick after `now`; or the problems with it. A cron has 5 fields, or 6 with
 * seconds first: croner reads more (years), which a plan does not need.
 */
export function checkSchedule(
  given: PlanScheduleCreate | null | undefined,
  now: Date,
): { schedule: PlanSchedule | null; next: Date | null; problems: PlanProblem[] } {
  if (given === undefined || given === null) return { schedule: null, next: null, problems: [] };
  const problems: PlanProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path: `/body/schedule${path}`, message, code: "validation_failed" });
  const schedule: PlanSchedule = { cron: String(given.cron ?? "").trim(), timezone: given.timezone ?? "UTC", missed: given.missed ?? "skip" };
  if (!MISSED.includes(schedule.missed)) problem("/missed", `is '${schedule.missed}': skip or run_once`);
  const zoned = isTimeZone(schedule.timezone);
  if (!zoned) problem("/timezone", `is '${schedule.timezone}', which is no IANA time zone (e.g. UTC, Europe/Paris)`);
  const fields = schedule.cron.split(/\s+/).filter(Boolean).length;
  let next: Date | null = null;
  // A nickname (`@daily`) is one field; croner reads it.
  if (fields !== 5 && fields !== 6 && !schedule.cron.startsWith("@")) {
    problem("/cron", `is '${schedule.cron}': 5 fields (minute hour day month weekday), or 6 with seconds first`);
  } else {
    try {
      // The pattern is checked even when the time zone is not (then read in UTC).
      next = cronOf(zoned ? schedule : { ...schedule, timezone: "UTC" }).nextRun(now);
      if (!next) problem("/cron", `is '${schedule.cron}', which never fires`);
    } catch (e) {
      problem("/cron", `is '${schedule.cron}', which is no cron: ${(e as Error).message}`);
    }
  }
  return problems.length ? { schedule: null, next: null, problems } : { schedule, next, problems };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
