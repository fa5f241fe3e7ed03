import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval, outliers, SKEWED, skewness, warmupRuns } from "./robust.js";
import { gaussian, seededRandom } from "./seeded-random.js";

describe("robust checks", () => {
  it("finds the warm-up runs, and none in a steady series", () => {
    const random = seededRandom(5);
    const steady = Array.from({ length: 12 }, () => 100 + gaussian(random));
    expect(warmupRuns([130, 118, 109, ...steady.slice(3)])).toBe(3);
    expect(warmupRuns([100, 100, 100, 100, 100])).toBe(0);
    expect(warmupRuns([130, 100, 100])).toBe(0);
    // MSER alone would cut the first three of this steady series (their spread is a little larger by chance).
    expect(warmupRuns([100, 100.2, 99.8, 100.1, 99.9, 100, 100.1])).toBe(0);
    let cut = 0;
    for (let i = 0; i < 200; i++) if (warmupRuns(Array.from({ length: 8 }, () => 100 + gaussian(random))) > 0) cut++;
    // About 7% of steady 8-run series have a first run far enough off to be flagged (flagged, not dropped, unless asked).
    expect(cut).toBeLessThan(20);
  });

  it("flags outliers by the modified z-score, and says by which rule", () => {
    expect(outliers([10, 10.1, 9.9, 10.05, 9.95, 14])).toEqual([5]);
    expect(outliers([10, 10.1, 9.9, 10.05, 9.95])).toEqual([]);
    expect(outliers([5, 5, 5, 5, 7])).toEqual([4]);
  });

  it("computes skewness as SAS's G1 does", () => {
    // SciPy: scipy.stats.skew([1, 2, 3, 10], bias=False).
    expect(skewness([1, 2, 3, 10])).toBeCloseTo(1.763633, 5);
    expect(skewness([1, 2, 3])).toBeCloseTo(0, 10);
  });

  it("tells a skewed metric, and gives its mean an interval with the longer tail on the long side, the same every time", () => {
    const random = seededRandom(11);
    let skewed = 0;
    for (let i = 0; i < 200; i++) if (skewness(Array.from({ length: 12 }, () => Math.exp(1.2 * gaussian(random)))) > SKEWED) skewed++;
    expect(skewed).toBeGreaterThan(120);
    const values = [1, 1.1, 0.9, 1.05, 0.95, 1, 1.02, 6];
    const b = bootstrapMeanInterval(values);
    const m = values.reduce((a, v) => a + v, 0) / values.length;
    expect(b.high - m).toBeGreaterThan(m - b.low);
    expect(bootstrapMeanInterval(values)).toEqual(b);
  });
});
