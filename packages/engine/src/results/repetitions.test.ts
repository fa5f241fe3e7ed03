import { describe, expect, it } from "vitest";
import type { StoredMetric } from "../model/metrics.js";
import { mainMetricSettled, metricsView, repetitionPlanOf } from "./repetitions.js";

describe("repeated runs", () => {
  it("makes a plan from the creation payload, with defaults, and refuses fields that do not go together", () => {
    expect(repetitionPlanOf(undefined)).toBeNull();
    expect(repetitionPlanOf({ count: 1 })).toBeNull();
    expect(repetitionPlanOf({ count: 5 })).toEqual({ count: 5 });
    expect(repetitionPlanOf({ until_cv: 0.05 })).toEqual({ until_cv: 0.05, min: 3, max: 10 });
    expect(repetitionPlanOf({ until_cv: 0.05, max: 2 })).toEqual({ until_cv: 0.05, min: 2, max: 2 });
    expect(repetitionPlanOf({ until_cv: 0.05, min: 20 })).toEqual({ until_cv: 0.05, min: 20, max: 20 });
    // Machines asked for keep the plan, even of one run: it says where the run goes.
    expect(repetitionPlanOf({ count: 1, machines: 3 })).toEqual({ count: 1, machines: 3 });
    expect(repetitionPlanOf({ machines: 2, first_machine: 2 })).toEqual({ count: 1, machines: 2, first_machine: 2 });
    expect(repetitionPlanOf({ until_cv: 0.05, machines: 4 })).toEqual({ until_cv: 0.05, min: 3, max: 10, machines: 4 });
    for (const [bad, path] of [
      [{ count: 3, until_cv: 0.1 }, "/body/repetitions/until_cv"],
      [{ count: 3, max: 5 }, "/body/repetitions/max"],
      [{}, "/body/repetitions/count"],
      [{ until_cv: 0.1, min: 8, max: 4 }, "/body/repetitions/min"],
    ] as const) {
      expect(() => repetitionPlanOf(bad), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: "validation_failed", extras: { errors: [expect.objectContaining({ path })] } }),
      );
    }
  });

  const fig = (name: string, value: number, repetition: number, tags: Record<string, string> = {}): StoredMetric => ({
    name,
    value,
    unit: "u",
    tags,
    repetition,
  });

  it("stops repeating once every figure of the main metric (the first measured) varies by at most the threshold", () => {
    const steady = [fig("eps", 100, 1), fig("lat", 1, 1), fig("eps", 101, 2), fig("lat", 9, 2)];
    expect(mainMetricSettled(steady, 0.01)).toBe(true);
    // The other metric's spread does not matter; the main one's does, per tag set.
    expect(mainMetricSettled(steady, 0.001)).toBe(false);
    expect(mainMetricSettled([...steady, fig("eps", 10, 1, { threads: "2" })], 0.01)).toBe(false);
    expect(mainMetricSettled([fig("eps", 100, 1)], 0.5)).toBe(false);
    expect(mainMetricSettled([], 0.5)).toBe(false);
  });

  it("shows a repeated run's figures as one per metric with its summary and every value, and a single run's as measured", () => {
    const view = metricsView([
      fig("eps", 10, 1, { threads: "1" }),
      fig("eps", 20, 1, { threads: "2" }),
      fig("eps", 12, 2, { threads: "1" }),
      fig("eps", 22, 2, { threads: "2" }),
    ]);
    expect(view).toHaveLength(2);
    expect(view[0]).toMatchObject({
      name: "eps",
      tags: { threads: "1" },
      value: 11,
      values: [10, 12],
      stats: { n: 2, mean: 11, min: 10, max: 12 },
    });
    expect(view[0]).not.toHaveProperty("repetition");
    expect(view[1].values).toEqual([20, 22]);
    const once = [{ name: "eps", value: 5, unit: "u" }];
    expect(metricsView(once)).toEqual(once);
    expect(metricsView(null)).toEqual([]);
  });
});
