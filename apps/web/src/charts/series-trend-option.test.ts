import type { LineSeriesOption } from "echarts/charts";
import type { Change, SeriesPoint } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { changeLabel, percent, seriesTrendOption } from "./series-trend-option.js";

const point = (seq: number, mean: number, ci: [number, number] | null = [mean - 1, mean + 1]): SeriesPoint => ({
  seq,
  at: `2026-11-${10 + seq} 03:00:00`,
  execution_id: `e${seq}`,
  plan_run_id: null,
  n: ci ? 5 : 1,
  mean,
  ci_low: ci?.[0] ?? null,
  ci_high: ci?.[1] ?? null,
  facts: {},
});
const identity = {
  benchmark: { tool: "sysbench", workload: "cpu_10000", params: {} },
  metric: { name: "events_per_second", tags: {}, unit: "events/s", better: "higher" as const },
  target: { provider: "local", service_type: "default" },
};
const change: Change = {
  id: "c1",
  series_id: "s1",
  series: identity,
  seq: 3,
  at: "2026-11-13 03:00:00",
  execution_id: "e3",
  direction: "regression",
  size: -0.1003,
  size_ci_low: -0.11,
  size_ci_high: -0.09,
  p_value: 0.005,
  before: { mean: 100, n: 2 },
  after: { mean: 90, n: 2 },
  facts_changed: [{ fact: "kernel", before: ["6.1.0-18"], after: ["6.1.0-<b>21</b>"] }],
  state: "open",
  detected_at: "2026-11-14 03:00:00",
  revision: 1,
};
const points = [point(1, 100), point(2, 101, null), point(3, 90), point(4, 91)];

describe("seriesTrendOption", () => {
  const option = seriesTrendOption({ metric: identity.metric, baseline: { from: 1, to: 2, n: 2, mean: 100.5, ci_low: null, ci_high: null } }, points, [change]);
  const [low, height, mean] = option.series as [LineSeriesOption, LineSeriesOption, LineSeriesOption];

  it("starts its point axis at the first point, not at 0", () => {
    expect(option.xAxis).toMatchObject({ min: 1 });
    const later = seriesTrendOption({ metric: identity.metric, baseline: null }, [point(31, 100), point(32, 90)], []);
    expect(later.xAxis).toMatchObject({ min: 31 });
  });

  it("draws the means as a line over the points' places", () => {
    expect(mean.type).toBe("line");
    expect(mean.data).toEqual([
      [1, 100],
      [2, 101],
      [3, 90],
      [4, 91],
    ]);
  });

  it("draws the intervals as a band stacked on their low ends, without the points that have none", () => {
    expect(low.stack).toBe(height.stack);
    expect(low.data).toEqual([
      [1, 99],
      [3, 89],
      [4, 90],
    ]);
    expect(height.data).toEqual([
      [1, 2],
      [3, 2],
      [4, 2],
    ]);
    expect(height.areaStyle).toBeDefined();
    expect(low.areaStyle).toBeUndefined();
  });

  it("marks each change at its first point, labelled with its size and the facts that changed", () => {
    const marks = mean.markLine!.data as Array<{ xAxis: number; label: { formatter: string } }>;
    expect(marks).toHaveLength(1);
    expect(marks[0]!.xAxis).toBe(3);
    expect(marks[0]!.label.formatter).toBe("#3 regression -10.0%\nkernel: 6.1.0-18 → 6.1.0-<b>21</b>");
  });

  it("shades the baseline's points", () => {
    expect(mean.markArea!.data).toEqual([[{ name: "baseline #1–#2", xAxis: 0.5 }, { xAxis: 2.5 }]]);
    const none = seriesTrendOption({ metric: identity.metric, baseline: null }, points, []);
    expect((none.series as LineSeriesOption[])[2]!.markArea).toBeUndefined();
  });
});

describe("changeLabel", () => {
  it("says when no fact changed", () => {
    expect(changeLabel({ ...change, direction: "improvement", size: 0.05, facts_changed: [] })).toBe("#3 improvement +5.0%\nno fact changed");
    expect(percent(0)).toBe("0.0%");
  });
});
