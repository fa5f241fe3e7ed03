import { describe, expect, it } from "vitest";
import { decideTick } from "./tick-decision.js";

// Every minute, on the minute: a schedule whose ticks are easy to count.
const everyMinute = (t: Date) => new Date((Math.floor(t.getTime() / 60_000) + 1) * 60_000);
const at = (hhmmss: string) => new Date(`2026-01-01T${hhmmss}Z`);
const GRACE = 30_000;

describe("a scheduler's decision on a due tick", () => {
  it("runs a tick found on time, and moves to the first tick after now", () => {
    expect(decideTick(everyMinute, at("10:00:00"), at("10:00:04"), GRACE, "skip")).toEqual({ runFor: at("10:00:00"), next: at("10:01:00"), missed: false });
    expect(decideTick(everyMinute, at("10:00:00"), at("10:00:30"), GRACE, "skip")).toEqual({ runFor: at("10:00:00"), next: at("10:01:00"), missed: false });
  });

  it("runs a tick found at its very time, and never the same tick again", () => {
    const decision = decideTick(everyMinute, at("10:00:00"), at("10:00:00"), GRACE, "skip");
    expect(decision).toEqual({ runFor: at("10:00:00"), next: at("10:01:00"), missed: false });
  });

  it("skips ticks missed while no server ran, when the plan says skip", () => {
    expect(decideTick(everyMinute, at("10:00:00"), at("10:00:31"), GRACE, "skip")).toEqual({ runFor: null, next: at("10:01:00"), missed: true });
    // Down for hours: nothing is caught up.
    expect(decideTick(everyMinute, at("10:00:00"), at("13:20:45"), GRACE, "skip")).toEqual({ runFor: null, next: at("13:21:00"), missed: true });
  });

  it("runs missed ticks once together, when the plan says run_once", () => {
    expect(decideTick(everyMinute, at("10:00:00"), at("13:20:45"), GRACE, "run_once")).toEqual({ runFor: at("10:00:00"), next: at("13:21:00"), missed: true });
  });

  it("runs a tick found on time after missed ones, whatever the plan says of missed ticks", () => {
    // Back at 13:20:10: 10:00 to 13:19 were missed, 13:20 is on time.
    for (const missed of ["skip", "run_once"] as const) {
      expect(decideTick(everyMinute, at("10:00:00"), at("13:20:10"), GRACE, missed)).toEqual({ runFor: at("13:20:00"), next: at("13:21:00"), missed: true });
    }
  });

  it("makes one run of the ticks of one look when the cron fires faster than the scheduler wakes", () => {
    const everySecond = (t: Date) => new Date((Math.floor(t.getTime() / 1000) + 1) * 1000);
    expect(decideTick(everySecond, at("10:00:00"), at("10:00:05.200"), GRACE, "skip")).toEqual({ runFor: at("10:00:00"), next: at("10:00:06"), missed: false });
    // Down a minute: the first tick within the grace is the run's.
    expect(decideTick(everySecond, at("10:00:00"), at("10:01:00.500"), GRACE, "skip")).toEqual({ runFor: at("10:00:31"), next: at("10:01:01"), missed: true });
  });

  it("leaves no next tick to a cron that fires no more", () => {
    const once = (t: Date) => (t < at("10:00:00") ? at("10:00:00") : null);
    expect(decideTick(once, at("10:00:00"), at("10:00:02"), GRACE, "skip")).toEqual({ runFor: at("10:00:00"), next: null, missed: false });
  });
});
