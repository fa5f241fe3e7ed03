import type { PlanSchedule, PlanScheduleCreate } from "../model/plans.js";
import type { Cron } from "croner";
import { cronOf } from "../schedules/cron.js";
import type { PlanProblem } from "./plan-problems.js";

const MISSED = ["skip", "run_once"];
const OVERLAP = ["skip", "allow"];

/** The least time between two ticks of a schedule unless the server says otherwise (BENCHWRIGHT_SCHEDULE_MIN_INTERVAL). */
const DEFAULT_SCHEDULE_MIN_INTERVAL_MS = 60_000;

/**
 * Ticks looked at for two too close: a cron's fields are lists, so the closest two of its
 * ticks come within its first day of ticks, and a cron firing more than 64 times a day
 * fires more often than a minimum worth setting (22.5 minutes).
 */
const TICKS_CHECKED = 64;

/**
 * A plan's schedule as it will be stored, its defaults filled in (UTC, missed ticks skipped),
 * with its first tick after `now`; or the problems with it. A cron has 5 fields, or 6 with
 * seconds first: croner reads more (years), which a plan does not need.
 */
export function checkSchedule(
  given: PlanScheduleCreate | null | undefined,
  now: Date,
  minIntervalMs = DEFAULT_SCHEDULE_MIN_INTERVAL_MS,
): { schedule: PlanSchedule | null; next: Date | null; problems: PlanProblem[] } {
  if (given === undefined || given === null) return { schedule: null, next: null, problems: [] };
  const problems: PlanProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path: `/body/schedule${path}`, message, code: "validation_failed" });
  const schedule: PlanSchedule = {
    cron: String(given.cron ?? "").trim(),
    timezone: given.timezone ?? "UTC",
    missed: given.missed ?? "skip",
    overlap: given.overlap ?? "skip",
  };
  if (!MISSED.includes(schedule.missed)) problem("/missed", `is '${schedule.missed}': skip or run_once`);
  if (!OVERLAP.includes(schedule.overlap ?? "skip")) problem("/overlap", `is '${schedule.overlap}': skip or allow`);
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
      const cron = cronOf(zoned ? schedule : { ...schedule, timezone: "UTC" });
      next = cron.nextRun(now);
      if (!next) problem("/cron", `is '${schedule.cron}', which never fires`);
      const closest = closestTicksMs(cron, now, minIntervalMs);
      if (closest !== null && closest < minIntervalMs)
        problem(
          "/cron",
          `is '${schedule.cron}', whose ticks come ${closest / 1000} s apart: this server wants at least ${minIntervalMs / 1000} s between two (BENCHWRIGHT_SCHEDULE_MIN_INTERVAL)`,
        );
    } catch (e) {
      problem("/cron", `is '${schedule.cron}', which is no cron: ${(e as Error).message}`);
    }
  }
  return problems.length ? { schedule: null, next: null, problems } : { schedule, next, problems };
}

/** The shortest time between two consecutive ticks of the first TICKS_CHECKED after `now`, found first under `floorMs`; null with fewer than two. */
function closestTicksMs(cron: Cron, now: Date, floorMs: number): number | null {
  let closest: number | null = null;
  let previous = cron.nextRun(now);
  for (let i = 1; previous && i < TICKS_CHECKED; i++) {
    const tick = cron.nextRun(previous);
    if (!tick) break;
    const gap = tick.getTime() - previous.getTime();
    if (closest === null || gap < closest) closest = gap;
    if (gap < floorMs) break;
    previous = tick;
  }
  return closest;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
