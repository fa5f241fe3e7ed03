import { describe, expect, it } from "vitest";
import { paramsText, planSize, progressText } from "./plan-words.js";

describe("the plan's words", () => {
  it("says a benchmark's params, each list as its values", () => {
    expect(paramsText({ threads: [1, 4, 16], mode: "fast" })).toBe("threads = 1, 4, 16; mode = fast");
    expect(paramsText({})).toBe("none");
  });

  it("says a plan's size as targets × cells = executions", () => {
    expect(planSize({ targets: [{}, {}] as never, cells: 3, executions: 6 })).toBe("2 targets × 3 cells = 6 executions");
    expect(planSize({ targets: [{}] as never, cells: 1, executions: 1 })).toBe("1 target × 1 cell = 1 execution");
  });

  it("says a run's progress: the cells ended, the bad ones, the running ones and the time left while it runs", () => {
    const progress = { total: 4, pending: 0, running: 1, completed: 2, failed: 1, cancelled: 0, eta_seconds: 12 };
    expect(progressText({ progress, ended: null })).toBe("3 of 4 cells ended (1 failed), 1 running, about 12 s left");
    expect(progressText({ progress: { ...progress, running: 0, pending: 0, completed: 3, eta_seconds: 0 }, ended: "2026-11-26 02:00:00" })).toBe(
      "4 of 4 cells ended (1 failed)",
    );
    expect(progressText({ progress: { ...progress, running: 0, completed: 0, failed: 0, pending: 4, eta_seconds: null }, ended: null })).toBe(
      "0 of 4 cells ended",
    );
  });
});
