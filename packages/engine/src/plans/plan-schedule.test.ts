import { describe, expect, it } from "vitest";
import { checkSchedule } from "./plan-schedule.js";

const NOW = new Date("2026-03-28T12:00:30Z");

describe("checkSchedule", () => {
  it("fills in the defaults (UTC, missed ticks skipped) and gives the first tick after now", () => {
    expect(checkSchedule({ cron: "* * * * *" }, NOW)).toEqual({
      schedule: { cron: "* * * * *", timezone: "UTC", missed: "skip", overlap: "skip" },
      next: new Date("2026-03-28T12:01:00Z"),
      problems: [],
    });
    expect(checkSchedule(undefined, NOW)).toEqual({ schedule: null, next: null, problems: [] });
    expect(checkSchedule(null, NOW)).toEqual({ schedule: null, next: null, problems: [] });
  });

  it("reads the cron in the plan's time zone, daylight saving included", () => {
    // 03:00 in Paris: 02:00 UTC in winter; after the change of 29 March 2026, 01:00 UTC.
    const paris = checkSchedule({ cron: "0 3 * * *", timezone: "Europe/Paris", missed: "run_once" }, NOW);
    expect(paris.schedule).toEqual({ cron: "0 3 * * *", timezone: "Europe/Paris", missed: "run_once", overlap: "skip" });
    expect(paris.next).toEqual(new Date("2026-03-29T01:00:00Z"));
  });

  it("takes six fields with seconds first, and nicknames", () => {
    // A server that allows ticks 10 s apart (BENCHWRIGHT_SCHEDULE_MIN_INTERVAL=10).
    expect(checkSchedule({ cron: "*/10 * * * * *" }, NOW, 10_000).next).toEqual(new Date("2026-03-28T12:00:40Z"));
    expect(checkSchedule({ cron: "@daily" }, NOW).next).toEqual(new Date("2026-03-29T00:00:00Z"));
  });

  it("lists a bad cron and a bad time zone each at its path", () => {
    const { schedule, problems } = checkSchedule({ cron: "61 * * * *", timezone: "Mars/Olympus_Mons" }, NOW);
    expect(schedule).toBeNull();
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ["/body/schedule/timezone", "validation_failed"],
      ["/body/schedule/cron", "validation_failed"],
    ]);
    expect(problems[1].message).toMatch(/61/);
  });

  it("refuses a cron of the wrong number of fields, and one that never fires", () => {
    expect(checkSchedule({ cron: "* * * *" }, NOW).problems.map((p) => p.message)).toEqual([expect.stringMatching(/5 fields/)]);
    expect(checkSchedule({ cron: "0 0 0 * * * 2027" }, NOW).problems.map((p) => p.path)).toEqual(["/body/schedule/cron"]);
    expect(checkSchedule({ cron: "0 0 30 2 *" }, NOW).problems.map((p) => p.message)).toEqual([expect.stringMatching(/never fires/)]);
  });

  it("refuses an unknown way of treating missed ticks", () => {
    expect(checkSchedule({ cron: "* * * * *", missed: "later" as "skip" }, NOW).problems.map((p) => p.path)).toEqual(["/body/schedule/missed"]);
  });

  // Issue 34, point 3: `* * * * * *` was accepted, and three such plans started 90 runs in 30 s.
  it("refuses a cron whose ticks come closer than the server's least interval (60 s unless set), at its path", () => {
    const everySecond = checkSchedule({ cron: "* * * * * *" }, NOW);
    expect(everySecond.schedule).toBeNull();
    expect(everySecond.problems.map((p) => [p.path, p.code])).toEqual([["/body/schedule/cron", "validation_failed"]]);
    expect(everySecond.problems[0].message).toMatch(/1 s apart.*at least 60 s.*BENCHWRIGHT_SCHEDULE_MIN_INTERVAL/);
    // Close ticks only now and then (twice at 03:00, 30 s apart) are found too.
    expect(checkSchedule({ cron: "0,30 0 3 * * *" }, NOW).problems.map((p) => p.message)).toEqual([expect.stringMatching(/30 s apart/)]);
    expect(checkSchedule({ cron: "* * * * *" }, NOW).problems).toEqual([]);
    expect(checkSchedule({ cron: "*/5 * * * *" }, NOW, 300_000).problems).toEqual([]);
    expect(checkSchedule({ cron: "*/4 * * * *" }, NOW, 300_000).problems.map((p) => p.path)).toEqual(["/body/schedule/cron"]);
    expect(checkSchedule({ cron: "*/10 * * * * *" }, NOW, 10_000).problems).toEqual([]);
  });

  it("takes overlap skip (the default) or allow, and refuses anything else", () => {
    expect(checkSchedule({ cron: "@daily", overlap: "allow" }, NOW).schedule?.overlap).toBe("allow");
    expect(checkSchedule({ cron: "@daily", overlap: "queue" as "skip" }, NOW).problems.map((p) => p.path)).toEqual(["/body/schedule/overlap"]);
  });
});
