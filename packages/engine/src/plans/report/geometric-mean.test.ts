import { describe, expect, it } from "vitest";
import { ranksOf } from "./figure-ranks.js";
import { geometricMean } from "./geometric-mean.js";

describe("geometricMean", () => {
  it("is the exponential of the mean logarithm: 2× and ½× make 1", () => {
    expect(geometricMean([2, 0.5], 0.95).value).toBeCloseTo(1, 12);
    expect(geometricMean([1, 4], 0.95).value).toBeCloseTo(2, 12);
  });

  it("has an interval around it that stays above 0, and none for a single ratio", () => {
    const g = geometricMean([0.9, 1.1, 1.3, 0.8], 0.95);
    expect(g.ci_low!).toBeGreaterThan(0);
    expect(g.ci_low!).toBeLessThan(g.value!);
    expect(g.ci_high!).toBeGreaterThan(g.value!);
    // Exponentiated, the interval is as wide in proportion on each side.
    expect(g.value! / g.ci_low!).toBeCloseTo(g.ci_high! / g.value!, 10);
    expect(geometricMean([1.5], 0.95)).toEqual({ n: 1, value: 1.5, ci_low: null, ci_high: null });
  });

  it("leaves out ratios without a logarithm", () => {
    expect(geometricMean([0, Number.POSITIVE_INFINITY, 2], 0.95)).toMatchObject({ n: 1, value: 2 });
    expect(geometricMean([], 0.95).value).toBeNull();
  });
});

describe("ranksOf", () => {
  it("ranks by the metric's better side, equal means sharing a rank", () => {
    expect(ranksOf([10, 30, 20, 30], "higher")).toEqual([4, 1, 3, 1]);
    expect(ranksOf([10, 30, 20], "lower")).toEqual([1, 3, 2]);
    expect(ranksOf([10, 30], undefined)).toEqual([null, null]);
  });
});
