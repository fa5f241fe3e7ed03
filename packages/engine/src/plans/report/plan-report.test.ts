import { describe, expect, it } from "vitest";
import { compareExecutions } from "../../results/comparison.js";
import { studentTQuantile } from "../../results/statistics.js";
import { buildPlanReport } from "./plan-report.js";
import { RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

const { plan, cells, executions } = syntheticRun();
const report = buildPlanReport(plan, cells, executions, { runId: RUN_ID });
const cellOf = (benchmark: number, cell: number) => report.cells.find((c) => c.benchmark === benchmark && c.cell === cell)!;
const figureOf = (benchmark: number, cell: number, metric: string, target: string) =>
  cellOf(benchmark, cell)
    .metrics.find((m) => m.name === metric)!
    .figures.find((f) => f.target === target)!;

describe("a plan run's report", () => {
  it("has every benchmark cell once, in the plan's order, with each target's state", () => {
    expect(report.cells.map((c) => [c.benchmark, c.cell, c.tool, c.params])).toEqual([
      [0, 0, "sysbench", { threads: 1 }],
      [0, 1, "sysbench", { threads: 4 }],
      [1, 0, "idle", {}],
      [2, 0, "qperf", {}],
    ]);
    expect(cellOf(1, 0).states.map((s) => [s.target, s.state])).toEqual([
      ["here", "completed"],
      ["fast", "failed"],
    ]);
    expect(report).toMatchObject({ plan_id: plan.id, run_id: RUN_ID, baseline: "here", confidence: 0.95 });
  });

  it("gives the clearly faster target a significant verdict and rank 1, each figure as compareExecutions gives it", () => {
    const fast = figureOf(0, 0, "events_per_second", "fast");
    expect(fast).toMatchObject({ verdict: "better", rank: 1, n: 5, mean: 200 });
    expect(fast.ratio).toBeCloseTo(2, 2);
    expect(fast.ratio_ci_low!).toBeLessThan(fast.ratio!);
    expect(fast.ratio_ci_high!).toBeGreaterThan(fast.ratio!);
    expect(figureOf(0, 0, "events_per_second", "here")).toMatchObject({ verdict: "baseline", rank: 2, ratio: 1 });
    // A latency: the lower mean ranks first and is better.
    expect(figureOf(0, 0, "latency_avg_ms", "fast")).toMatchObject({ verdict: "better", rank: 1 });
    // The same figures, verdicts and intervals as a comparison of the two executions.
    const direct = compareExecutions([executions.get("e-here-0-0")!, executions.get("e-fast-0-0")!], "e-here-0-0", 0.95);
    for (const m of direct.metrics) {
      const f = m.figures[1];
      expect(figureOf(0, 0, m.name, "fast")).toEqual({
        target: "fast",
        execution_id: "e-fast-0-0",
        n: f.n,
        mean: f.mean,
        ci_low: f.ci_low,
        ci_high: f.ci_high,
        ratio: f.ratio,
        ratio_ci_low: f.ratio_ci_low,
        ratio_ci_high: f.ratio_ci_high,
        p_value: f.p_value,
        verdict: f.verdict,
        rank: 1,
        variability: f.variability,
      });
    }
  });

  it("says no_difference where the targets measure the same", () => {
    expect(figureOf(0, 1, "events_per_second", "fast").verdict).toBe("no_difference");
    expect(cellOf(0, 1).main_metric).toBe("events_per_second");
  });

  it("ranks the targets by the geometric mean of their main-metric ratios, a latency's ratio turned over", () => {
    const ratios = [
      figureOf(0, 0, "events_per_second", "fast").ratio!,
      figureOf(0, 1, "events_per_second", "fast").ratio!,
      1 / figureOf(2, 0, "latency_us", "fast").ratio!,
    ];
    const logs = ratios.map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, l) => a + (l - mean) ** 2, 0) / (logs.length - 1));
    const half = studentTQuantile(0.975, logs.length - 1) * (sd / Math.sqrt(logs.length));
    const [first, second] = report.targets;
    expect(first).toMatchObject({ target: "fast", rank: 1, cells: 3, failed: 1 });
    expect(first.geomean).toBeCloseTo(Math.cbrt(ratios[0] * ratios[1] * ratios[2]), 10);
    expect(first.geomean_ci_low).toBeCloseTo(Math.exp(mean - half), 10);
    expect(first.geomean_ci_high).toBeCloseTo(Math.exp(mean + half), 10);
    // The baseline divides by itself: 1 in each of its four cells.
    expect(second).toMatchObject({ target: "here", rank: 2, cells: 4, failed: 0, geomean: 1, geomean_ci_low: 1, geomean_ci_high: 1 });
    expect(first).not.toHaveProperty("cost");
  });

  it("lists each failed cell with its error", () => {
    expect(report.failures).toEqual([
      {
        target: "fast",
        benchmark: 1,
        cell: 0,
        tool: "idle",
        workload: "idle5",
        params: {},
        state: "failed",
        execution_id: null,
        error: "machine fast-1 did not answer on port 22",
      },
    ]);
  });

  it("counts a cancelled cell apart from the failed ones", () => {
    const run = syntheticRun();
    const stopped = run.cells.map((c) =>
      c.target === "fast" && c.benchmark === 2 ? { ...c, state: "cancelled" as const, execution_id: null, error: "the run was cancelled" } : c,
    );
    const r = buildPlanReport(run.plan, stopped, run.executions, { runId: RUN_ID });
    expect(r.targets.find((t) => t.target === "fast")).toMatchObject({ failed: 1, cancelled: 1 });
    expect(r.targets.find((t) => t.target === "here")).toMatchObject({ failed: 0, cancelled: 0 });
  });

  it("summarises and ranks the targets of a cell whose baseline failed, without a ratio or a verdict", () => {
    const run = syntheticRun();
    const broken = run.cells.map((c) => (c.target === "here" && c.benchmark === 0 && c.cell === 0 ? { ...c, state: "failed" as const, error: "no" } : c));
    const r = buildPlanReport(run.plan, broken, run.executions, { runId: RUN_ID });
    const eps = r.cells[0].metrics.find((m) => m.name === "events_per_second")!;
    expect(eps.figures).toEqual([expect.objectContaining({ target: "fast", ratio: null, verdict: "unknown", rank: 1 })]);
    expect(r.targets.find((t) => t.target === "fast")!.cells).toBe(2);
  });

  it("adds each target's cost and its performance per cost when costs are given", () => {
    const costs = new Map([...executions.keys()].map((id) => [id, { amount: id.startsWith("e-fast") ? 3 : 1, currency: "EUR" }]));
    const r = buildPlanReport(plan, cells, executions, { runId: RUN_ID, costs });
    const fast = r.targets.find((t) => t.target === "fast")!;
    expect(fast.cost).toEqual({ amount: 9, currency: "EUR" });
    expect(fast.performance_per_cost).toBeCloseTo(fast.geomean! / 9, 12);
    expect(r.targets.find((t) => t.target === "here")!.cost).toEqual({ amount: 4, currency: "EUR" });
    // Costs in two currencies do not add up.
    costs.set("e-fast-0-0", { amount: 3, currency: "USD" });
    const mixed = buildPlanReport(plan, cells, executions, { runId: RUN_ID, costs }).targets.find((t) => t.target === "fast")!;
    expect(mixed).toMatchObject({ cost: null, performance_per_cost: null });
  });
});
