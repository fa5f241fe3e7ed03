import type { ComparedMetric, MetricFigure } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { cannotBeNegative, groupByUnit } from "./metric-groups.js";

const figure = (execution_id: string, verdict: MetricFigure["verdict"], values: number[]): MetricFigure => ({
  execution_id,
  n: values.length,
  mean: values.reduce((a, b) => a + b, 0) / values.length,
  stddev: 0,
  min: Math.min(...values),
  max: Math.max(...values),
  ci_low: Math.min(...values) - 1,
  ci_high: Math.max(...values) + 1,
  values,
  ratio: 1,
  ratio_ci_low: null,
  ratio_ci_high: null,
  p_value: null,
  significant: false,
  verdict,
});
const metric = (name: string, unit: string, verdict: MetricFigure["verdict"], values = [1, 2]): ComparedMetric => ({
  name,
  unit,
  tags: {},
  figures: [figure("a", "baseline", values), figure("b", verdict, values)],
});

describe("the comparison's metric groups", () => {
  it("puts fourteen metrics of four units in four groups, in the order given, counting verdicts", () => {
    const units = ["IOPS", "KiB/s", "us", "%"];
    const metrics = Array.from({ length: 14 }, (_, i) => metric(`m${i}`, units[i % 4]!, i % 3 ? "better" : "worse"));
    const groups = groupByUnit(metrics);
    expect(groups.map((g) => [g.unit, g.metrics.map((m) => m.name)])).toEqual([
      ["IOPS", ["m0", "m4", "m8", "m12"]],
      ["KiB/s", ["m1", "m5", "m9", "m13"]],
      ["us", ["m2", "m6", "m10"]],
      ["%", ["m3", "m7", "m11"]],
    ]);
    expect(groups[0]!.verdicts).toEqual({ worse: 2, better: 2 });
  });

  it("says a metric whose every value is 0 or more cannot be negative, whatever its interval", () => {
    expect(cannotBeNegative(metric("t", "s", "better", [0.1, 0.9]))).toBe(true);
    expect(cannotBeNegative(metric("d", "s", "better", [-0.1, 0.9]))).toBe(false);
  });
});
