import type { CustomSeriesOption, ScatterSeriesOption } from "echarts/charts";
import type { PlanReport } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { costPointText, costPoints, costScatterOption, type CostPoint } from "./cost-scatter-option.js";

type Target = PlanReport["targets"][number];
const base = { rank: 1, cells: 2, failed: 0, cancelled: 0, geomean_ci_low: null, geomean_ci_high: null };
const report = (targets: Target[]): PlanReport => ({ plan_id: "p", run_id: "r", baseline: "a", confidence: 0.95, targets, cells: [], failures: [] });

describe("costPoints", () => {
  it("gives none when no target has a cost: no price was set", () => {
    expect(costPoints(report([{ ...base, target: "a", geomean: 1 }]))).toEqual([]);
    expect(costPoints(report([{ ...base, target: "a", geomean: 1, cost: null, performance_per_cost: null }]))).toEqual([]);
  });

  it("gives a point per target with a cost and a geometric mean", () => {
    const points = costPoints(
      report([
        { ...base, target: "a", geomean: 1, geomean_ci_low: 0.9, geomean_ci_high: 1.1, cost: { amount: 0.2, currency: "USD" }, performance_per_cost: 5 },
        { ...base, target: "b", geomean: 2, cost: { amount: 0.5, currency: "USD" }, performance_per_cost: 4 },
        // No price for its service, or costs in several currencies: null, no point.
        { ...base, target: "c", geomean: 3, cost: null, performance_per_cost: null },
        { ...base, target: "d", geomean: null, cost: { amount: 1, currency: "USD" }, performance_per_cost: null },
      ]),
    );
    expect(points).toEqual([
      { target: "a", cost: 0.2, currency: "USD", geomean: 1, low: 0.9, high: 1.1, perCost: 5 },
      { target: "b", cost: 0.5, currency: "USD", geomean: 2, low: null, high: null, perCost: 4 },
    ]);
  });
});

describe("costScatterOption", () => {
  const points: CostPoint[] = [
    { target: "a", cost: 0.2, currency: "USD", geomean: 1, low: 0.9, high: 1.1, perCost: 5 },
    { target: "<b>b</b>", cost: 0.5, currency: "USD", geomean: 2, low: null, high: null, perCost: 4 },
  ];
  const option = costScatterOption(points);
  const [scatter, interval] = option.series as [ScatterSeriesOption, CustomSeriesOption];

  it("puts each target at its cost (x) and geometric mean (y), named by its label", () => {
    expect(scatter.type).toBe("scatter");
    expect(scatter.data).toEqual([
      [0.2, 1],
      [0.5, 2],
    ]);
    const label = scatter.label as { formatter: (item: { dataIndex: number }) => string };
    expect([0, 1].map((dataIndex) => label.formatter({ dataIndex }))).toEqual(["a", "<b>b</b>"]);
    expect((option.xAxis as { name: string }).name).toBe("Cost (USD)");
    // Targets priced in other currencies: each is named on the axis.
    const mixed = costScatterOption([points[0]!, { ...points[1]!, currency: "EUR" }]);
    expect((mixed.xAxis as { name: string }).name).toBe("Cost (USD, EUR)");
  });

  it("draws a target's interval as a vertical whisker at its cost, and none without one", () => {
    expect(interval.type).toBe("custom");
    expect(interval.silent).toBe(true);
    expect(interval.data).toEqual([[0.2, 0.9, 1.1]]);
    expect(interval.encode).toEqual({ x: 0, y: [1, 2] });
  });

  it("tells a point's figures in its tooltip", () => {
    expect(costPointText(points[1]!)).toBe("<b>b</b>: ×2 for 0.5 USD, 4 per USD");
    expect(costPointText(points[0]!)).toBe("a: ×1 [0.9, 1.1] for 0.2 USD, 5 per USD");
  });
});
