import { describe, expect, it } from "vitest";
import { matrixText, progressText, type MatrixRun } from "./plan-matrix.js";

const cell = (target: string, benchmark: number, index: number, state: string, params: Record<string, unknown> = {}) => ({
  target,
  benchmark,
  cell: index,
  state,
  tool: benchmark === 0 ? "sysbench" : "idle",
  workload: benchmark === 0 ? "cpu" : "idle0",
  params,
});

describe("a plan run's matrix", () => {
  const run: MatrixRun = {
    state: "running",
    progress: { total: 6, completed: 2, failed: 1, running: 1, eta_seconds: 125 },
    // Out of order, as a list may come: the matrix orders them by benchmark, then cell.
    cells: [
      cell("fast", 1, 0, "pending"),
      cell("fast", 0, 1, "running", { threads: 2 }),
      cell("fast", 0, 0, "completed", { threads: 1 }),
      cell("slow", 0, 0, "completed", { threads: 1 }),
      cell("slow", 0, 1, "failed", { threads: 2 }),
      cell("slow", 1, 0, "preparing"),
    ],
  };

  it("draws a row per target, a mark per cell in the plan's order, and names the columns", () => {
    expect(matrixText(run).split("\n")).toEqual([
      "fast    ✔▶·",
      "slow    ✔✖◐",
      "  1-2: sysbench/cpu (threads=1 | threads=2)",
      "  3: idle/idle0",
      "running: 3/6 done (1 failed), 1 running, about 2 min left",
    ]);
  });

  it("wraps a long row under its label", () => {
    const many: MatrixRun = { ...run, cells: Array.from({ length: 25 }, (_, i) => cell("t", 0, i, "completed", { n: i })) };
    const rows = matrixText(many, 18).split("\n");
    expect(rows.slice(0, 3)).toEqual(["t       ✔✔✔✔✔✔✔✔✔✔", "        ✔✔✔✔✔✔✔✔✔✔", "        ✔✔✔✔✔"]);
  });

  it("says the time left only while cells remain, and once an estimate exists", () => {
    expect(progressText({ ...run, progress: { total: 2, completed: 2, failed: 0, running: 0, eta_seconds: 0 }, state: "completed" })).toBe(
      "completed: 2/2 done",
    );
    expect(progressText({ ...run, progress: { total: 2, completed: 0, failed: 0, running: 2, eta_seconds: null } })).toBe("running: 0/2 done, 2 running");
    expect(progressText({ ...run, progress: { total: 9, completed: 1, failed: 0, running: 0, cancelled: 8 }, state: "cancelled" })).toBe(
      "cancelled: 9/9 done (8 cancelled)",
    );
  });
});
