import { describe, expect, it } from "vitest";
import { chiSquareCdf, chiSquareQuantile } from "./chi-square.js";

// Reference figures from SciPy (scipy.stats.chi2.cdf, ppf), as R gives them (pchisq, qchisq).
describe("the chi-square distribution", () => {
  it("gives the CDF and quantiles as R does", () => {
    expect(chiSquareCdf(3.84145882, 1)).toBeCloseTo(0.95, 7);
    expect(chiSquareCdf(2, 3)).toBeCloseTo(0.4275933, 6);
    expect(chiSquareCdf(30, 20)).toBeCloseTo(0.9301463, 6);
    expect(chiSquareQuantile(0.975, 4)).toBeCloseTo(11.14329, 4);
    expect(chiSquareQuantile(0.025, 4)).toBeCloseTo(0.4844186, 5);
    expect(chiSquareQuantile(0.025, 2.5)).toBeCloseTo(0.1186229, 5);
    expect(chiSquareQuantile(0.5, 100)).toBeCloseTo(99.33412, 3);
    expect(() => chiSquareQuantile(1, 3)).toThrow(RangeError);
  });
});
