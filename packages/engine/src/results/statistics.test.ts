import { describe, expect, it } from "vitest";
import { compareSamples, regularizedIncompleteBeta, studentTCdf, studentTQuantile, summarize } from "./statistics.js";

// Reference figures from statistical tables and R (qt, pt, t.test(var.equal = FALSE)).
describe("statistics of repeated measurements", () => {
  it("gives Student's t quantiles and CDF as the tables do", () => {
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentTQuantile(0.975, 4)).toBeCloseTo(2.776445, 5);
    expect(studentTQuantile(0.975, 30)).toBeCloseTo(2.042272, 5);
    expect(studentTQuantile(0.025, 9)).toBeCloseTo(-2.262157, 5);
    expect(studentTCdf(2, 10)).toBeCloseTo(0.963306, 5);
    expect(studentTCdf(0, 3.5)).toBeCloseTo(0.5, 10);
    expect(regularizedIncompleteBeta(0.5, 2, 3)).toBeCloseTo(0.6875, 10);
  });

  it("summarizes a sample with its 95% confidence interval", () => {
    const s = summarize([1, 2, 3, 4, 5]);
    expect(s).toMatchObject({ n: 5, mean: 3, min: 1, max: 5 });
    expect(s.stddev).toBeCloseTo(1.581139, 5);
    expect(s.ci_low).toBeCloseTo(3 - 1.963243, 5);
    expect(s.ci_high).toBeCloseTo(3 + 1.963243, 5);
    expect(s.cv).toBeCloseTo(0.527046, 5);
    // One value says nothing of the spread: no interval around it.
    expect(summarize([7])).toEqual({ n: 1, mean: 7, stddev: 0, min: 7, max: 7, ci_low: 7, ci_high: 7, cv: 0 });
    expect(() => summarize([])).toThrow(RangeError);
  });

  it("runs Welch's test as R's t.test does", () => {
    // Welch (1947)'s unequal-variance example as Wikipedia gives it: t = -2.455, df = 24.99, p = 0.021378 (SciPy ttest_ind, equal_var=False).
    const a = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
    const b = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];
    const test = compareSamples(summarize(a), summarize(b));
    expect(test.p_value!).toBeCloseTo(0.021378, 6);
    expect(test.ratio).toBeCloseTo(22.986667 / 20.82, 6);
    expect(test.ci_low!).toBeGreaterThan(1);
    expect(test.ci_high!).toBeGreaterThan(test.ratio);
  });

  it("finds no difference between samples of one distribution, and a sure one where one side is half the other", () => {
    const same = compareSamples(summarize([10, 11, 9, 10.5, 9.5]), summarize([10.2, 9.8, 10.1, 9.9, 10]));
    expect(same.p_value!).toBeGreaterThan(0.5);
    expect(same.ci_low!).toBeLessThan(1);
    expect(same.ci_high!).toBeGreaterThan(1);
    const half = compareSamples(summarize([100, 102, 98, 101, 99]), summarize([50, 51, 49, 50.5, 49.5]));
    expect(half.ratio).toBeCloseTo(0.5, 10);
    expect(half.p_value!).toBeLessThan(1e-6);
    expect(half.ci_high!).toBeLessThan(0.52);
  });

  it("says what it cannot tell: one value on a side, no spread, a zero baseline", () => {
    expect(compareSamples(summarize([1]), summarize([2, 3]))).toEqual({ ratio: 2.5, ci_low: null, ci_high: null, p_value: null });
    expect(compareSamples(summarize([2, 2, 2]), summarize([3, 3, 3])).p_value).toBe(0);
    expect(compareSamples(summarize([2, 2, 2]), summarize([2, 2, 2])).p_value).toBe(1);
    const zero = compareSamples(summarize([0, 0, 0]), summarize([1, 2, 3]));
    expect(zero.ratio).toBe(Number.POSITIVE_INFINITY);
    expect(zero.ci_low).toBeNull();
  });
});
