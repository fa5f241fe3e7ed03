import type { Metric } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { executionMetricGroups } from "./metric-bars.js";

const once: Metric = { name: "idle_seconds", value: 1.004, unit: "s", better: "lower" };
const repeated: Metric = {
  name: "idle_seconds",
  value: 1.0043,
  unit: "s",
  better: "lower",
  values: [1.003, 1.004, 1.006],
  stats: { n: 3, mean: 1.0043, stddev: 0.0015, min: 1.003, max: 1.006, ci_low: 1.0005, ci_high: 1.0081, cv: 0.0015 },
};

describe("executionMetricGroups", () => {
  it("draws a repeated run's figure at its mean with the mean's confidence interval as its error bar", () => {
    const [group] = executionMetricGroups([repeated]);
    expect(group!.bars).toEqual([expect.objectContaining({ value: 1.0043, low: 1.0005, high: 1.0081 })]);
  });

  it("says a figure that was never below zero cannot be, and one that was can", () => {
    expect(executionMetricGroups([repeated])[0]!.nonNegative).toBe(true);
    expect(
      executionMetricGroups([{ name: "skew", value: 0.2, unit: "", values: [-0.1, 0.5], stats: { ...repeated.stats!, ci_low: -0.3 } }])[0]!.nonNegative,
    ).toBe(false);
  });

  it("draws a figure measured once without an error bar", () => {
    const [group] = executionMetricGroups([once]);
    expect(group!.bars[0]!.low).toBeUndefined();
    expect(group!.bars[0]!.high).toBeUndefined();
  });

  it("groups figures by name, labelled by their tags or machine", () => {
    const groups = executionMetricGroups([
      { name: "events_per_second", value: 1, unit: "events/s", tags: { threads: "1" } },
      { name: "events_per_second", value: 2, unit: "events/s", tags: { threads: "2" } },
      { name: "latency_ms", value: 3, unit: "ms", vm: "m1" },
    ]);
    expect(groups.map((g) => [g.name, g.bars.map((b) => b.label)])).toEqual([
      ["events_per_second", ["threads=1", "threads=2"]],
      ["latency_ms", ["latency_ms"]],
    ]);
  });
});
