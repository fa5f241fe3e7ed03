import { describe, expect, it } from "vitest";
import type { PlanCellState } from "../model/plan-runs.js";
import { progressOf } from "./run-view.js";

const cells = (...states: PlanCellState[]) => states.map((state) => ({ state }));

describe("progressOf", () => {
  const started = new Date("2026-11-21T10:00:00Z");
  const at = (s: number) => new Date(started.getTime() + s * 1000);

  it("counts the cells by state, preparing and running together", () => {
    expect(progressOf(cells("pending", "preparing", "running", "completed", "failed", "cancelled"), started, at(10))).toEqual({
      total: 6,
      pending: 1,
      running: 2,
      completed: 1,
      failed: 1,
      cancelled: 1,
      eta_seconds: 15,
    });
  });

  it("has no estimate until a cell ran to its end, and none left once every cell ended", () => {
    expect(progressOf(cells("running", "pending"), started, at(30)).eta_seconds).toBeNull();
    expect(progressOf(cells("cancelled", "pending"), started, at(30)).eta_seconds).toBeNull();
    expect(progressOf(cells("pending"), null).eta_seconds).toBeNull();
    expect(progressOf(cells("completed", "cancelled"), started, at(30)).eta_seconds).toBe(0);
  });

  it("estimates the time left at the pace so far: 3 cells in 30 s, 3 left, 30 s", () => {
    expect(progressOf(cells("completed", "completed", "failed", "running", "pending", "pending"), started, at(30)).eta_seconds).toBe(30);
  });
});
