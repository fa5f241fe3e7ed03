import type { PlanReport, PlanRun } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { cellTitle, cellsEnded, planMatrix, shadeOf } from "./plan-matrix.js";

type RunCell = PlanRun["cells"][number];
type Figure = PlanReport["cells"][number]["metrics"][number]["figures"][number];

const runCell = (target: string, benchmark: number, cell: number, state: RunCell["state"], extra: Partial<RunCell> = {}): RunCell => ({
  target,
  benchmark,
  cell,
  tool: benchmark === 0 ? "sysbench" : "idle",
  workload: benchmark === 0 ? "threads" : "idle5",
  params: benchmark === 0 ? { threads: [1, 4][cell]! } : {},
  state,
  execution_id: state === "completed" ? `e-${target}-${benchmark}-${cell}` : null,
  attempts: state === "pending" ? 0 : 2,
  error: null,
  ...extra,
});

// Listed out of order, as a driver may record them: the matrix orders its columns by the plan's.
const cells: RunCell[] = [
  runCell("a", 1, 0, "completed"),
  runCell("a", 0, 1, "completed"),
  runCell("a", 0, 0, "completed"),
  runCell("b", 0, 0, "completed"),
  runCell("b", 0, 1, "completed"),
  runCell("b", 1, 0, "completed"),
  runCell("c", 0, 0, "completed"),
  runCell("c", 0, 1, "failed", { error: "machine c-1 did not answer on port 22" }),
  runCell("c", 1, 0, "running"),
];

const run: PlanRun = {
  id: "r",
  plan_id: "p",
  state: "running",
  created: "2026-11-26 02:00:00",
  started: "2026-11-26 02:00:01",
  ended: null,
  progress: { total: 9, pending: 0, running: 1, completed: 7, failed: 1, cancelled: 0, eta_seconds: 3 },
  sessions: {},
  cells,
};

const fig = (target: string, mean: number, ratio: number | null, verdict: Figure["verdict"], p: number | null = null): Figure => ({
  target,
  execution_id: `e-${target}`,
  n: 2,
  mean,
  ci_low: mean * 0.9,
  ci_high: mean * 1.1,
  ratio,
  ratio_ci_low: null,
  ratio_ci_high: null,
  p_value: p,
  verdict,
  rank: null,
});

const states = [] as PlanReport["cells"][number]["states"];
// The report was read before b's idle cell ended: it has no figure of it yet.
const report: PlanReport = {
  plan_id: "p",
  run_id: "r",
  baseline: "a",
  confidence: 0.95,
  targets: [],
  failures: [],
  cells: [
    {
      benchmark: 0,
      cell: 0,
      tool: "sysbench",
      workload: "threads",
      params: { threads: 1 },
      main_metric: "events_per_second",
      states,
      metrics: [
        {
          name: "events_per_second",
          unit: "events/s",
          better: "higher",
          tags: {},
          figures: [fig("a", 100, 1, "baseline"), fig("b", 150, 1.5, "better", 0.001), fig("c", 101, 1.01, "no_difference", 0.6)],
        },
      ],
    },
    {
      benchmark: 0,
      cell: 1,
      tool: "sysbench",
      workload: "threads",
      params: { threads: 4 },
      main_metric: "latency",
      states,
      metrics: [
        // Not the main metric: the colours read the one the report names.
        { name: "events_per_second", unit: "events/s", better: "higher", tags: {}, figures: [fig("a", 1, 1, "baseline"), fig("b", 9, 9, "better")] },
        { name: "latency", unit: "ms", better: "lower", tags: {}, figures: [fig("a", 10, 1, "baseline"), fig("b", 20, 2, "worse", 0.0001)] },
      ],
    },
    { benchmark: 1, cell: 0, tool: "idle", workload: "idle5", params: {}, main_metric: "idle_seconds", states, metrics: [] },
  ],
};

describe("planMatrix", () => {
  const matrix = planMatrix(run, report, "a");
  const square = (target: string, column: number) => matrix.rows.find((r) => r.target === target)!.squares[column]!;

  it("puts the targets in rows, in the run's order, and the benchmark cells in columns, in the plan's order", () => {
    expect(matrix.rows.map((r) => [r.target, r.baseline])).toEqual([
      ["a", true],
      ["b", false],
      ["c", false],
    ]);
    expect(matrix.columns).toEqual([
      { benchmark: 0, cell: 0, title: "sysbench/threads threads=1", mainMetric: "events_per_second" },
      { benchmark: 0, cell: 1, title: "sysbench/threads threads=4", mainMetric: "latency" },
      { benchmark: 1, cell: 0, title: "idle/idle5", mainMetric: "idle_seconds" },
    ]);
  });

  it("colours a significantly better cell green and a worse one red, by its main metric turned so that above 1 is better", () => {
    expect(square("b", 0)).toMatchObject({ tone: "better", ratio: 1.5, text: "×1.5 better", shade: shadeOf("better", 1.5) });
    expect(square("b", 0).hint).toContain("p=0.001");
    // Latency twice the baseline's: half as good, the deepest red.
    expect(square("b", 1)).toMatchObject({ tone: "worse", ratio: 0.5, text: "×0.5 worse", shade: "hsl(0 70% 76%)" });
    expect(square("b", 1).hint).toContain("latency: 20 ms [18, 22], n=2");
  });

  it("leaves a cell without a significant difference plain, and marks the baseline's", () => {
    expect(square("c", 0)).toMatchObject({ tone: "plain", ratio: 1.01, shade: null, text: "×1.01 no difference" });
    expect(square("a", 0)).toMatchObject({ tone: "baseline", ratio: 1, shade: null });
  });

  it("shows each cell's state until it has a figure, and a failed cell's error on hover", () => {
    expect(square("c", 1)).toMatchObject({ tone: "failed", text: "failed", error: "machine c-1 did not answer on port 22", shade: null });
    expect(square("c", 1).hint).toBe("failed: machine c-1 did not answer on port 22");
    expect(square("c", 2)).toMatchObject({ tone: "running", text: "running", ratio: null });
    // Completed after the report was read: completed, waiting for its figures.
    expect(square("b", 2)).toMatchObject({ tone: "completed", executionId: "e-b-1-0" });
  });

  it("shows the states alone without a report, and names the plan's baseline", () => {
    const bare = planMatrix({ ...run, cells: [runCell("x", 0, 0, "pending"), runCell("y", 0, 0, "preparing")] }, undefined, "y");
    expect(bare.columns).toEqual([{ benchmark: 0, cell: 0, title: "sysbench/threads threads=1", mainMetric: null }]);
    expect(bare.rows.map((r) => [r.target, r.baseline, r.squares[0]!.tone])).toEqual([
      ["x", false, "pending"],
      ["y", true, "preparing"],
    ]);
  });
});

describe("the matrix's helpers", () => {
  it("deepens the shade with the distance of the ratio from 1, the same for a ratio and its inverse", () => {
    expect(shadeOf("better", 1)).toBe("hsl(130 55% 92%)");
    expect(shadeOf("better", 2)).toBe("hsl(130 55% 76%)");
    expect(shadeOf("worse", 0.5)).toBe(shadeOf("worse", 2));
    expect(shadeOf("better", 8)).toBe(shadeOf("better", 2));
    expect(shadeOf("better", null)).toBe("hsl(130 55% 92%)");
  });

  it("names a cell by its tool, workload and params, and counts the cells ended", () => {
    expect(cellTitle({ tool: "fio", workload: "randread", params: { bs: "4k", depth: 16 } })).toBe("fio/randread bs=4k depth=16");
    expect(cellsEnded(run)).toBe(8);
  });
});
