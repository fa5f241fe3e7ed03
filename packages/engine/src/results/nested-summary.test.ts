import { describe, expect, it } from "vitest";
import { nestedSummary } from "./nested-summary.js";
import { gaussian, seededRandom, type SeededRandom } from "./seeded-random.js";
import { summarize } from "./statistics.js";

/** m machines of a type whose mean is `mu`, each n runs: machine effect sd `between`, run noise sd `within`. */
function experiment(random: SeededRandom, m: number, n: number, mu: number, between: number, within: number): number[][] {
  return Array.from({ length: m }, () => {
    const machine = mu + between * gaussian(random);
    return Array.from({ length: n }, () => machine + within * gaussian(random));
  });
}

describe("the nested (machines × runs) summary", () => {
  it("estimates the variance components of a balanced design as the ANOVA does", () => {
    // Machine means 10, 12, 14; each run 1 away from its machine's mean.
    const s = nestedSummary([
      [9, 11],
      [11, 13],
      [13, 15],
    ]);
    expect(s).toMatchObject({ machines: 3, runs: 6, mean: 12, interval_from: "machines" });
    // MSW = (1+1+1+1+1+1)/3 = 2; var of means = 4; σ²_b = 4 − 2/2 = 3.
    expect(s.within_variance).toBeCloseTo(2, 10);
    expect(s.between_variance).toBeCloseTo(3, 10);
    expect(s.between_cv).toBeCloseTo(Math.sqrt(3) / 12, 10);
    // t(0.975, 2) · sqrt(4/3)
    expect(s.ci_high - 12).toBeCloseTo(4.302653 * Math.sqrt(4 / 3), 4);
    expect(s.within_cv_ci_low!).toBeLessThan(s.within_cv!);
    expect(s.within_cv_ci_high!).toBeGreaterThan(s.within_cv!);
    expect(s.between_cv_ci_low!).toBeLessThanOrEqual(s.between_cv!);
    expect(s.between_cv_ci_high!).toBeGreaterThan(s.between_cv!);
  });

  it("falls back to the runs' interval on one machine, and says so", () => {
    const s = nestedSummary([[1, 2, 3, 4, 5]]);
    const pooled = summarize([1, 2, 3, 4, 5]);
    expect(s).toMatchObject({ machines: 1, interval_from: "runs", mean: 3, between_cv: null });
    expect(s.ci_low).toBeCloseTo(pooled.ci_low, 8);
    expect(nestedSummary([[7]])).toMatchObject({ ci_low: 7, ci_high: 7, within_cv: null });
  });

  it("covers the true mean 93–97% of the time over 1,000 simulated experiments, where pooling the runs does not", () => {
    const random = seededRandom(37);
    let nested = 0;
    let pooled = 0;
    const trials = 1000;
    for (let i = 0; i < trials; i++) {
      // Machines differ by 4%, runs on one by 1%: 6 machines × 3 runs.
      const groups = experiment(random, 6, 3, 100, 4, 1);
      const s = nestedSummary(groups);
      if (s.ci_low <= 100 && 100 <= s.ci_high) nested++;
      const p = summarize(groups.flat());
      if (p.ci_low <= 100 && 100 <= p.ci_high) pooled++;
    }
    expect(nested / trials).toBeGreaterThanOrEqual(0.93);
    expect(nested / trials).toBeLessThanOrEqual(0.97);
    expect(pooled / trials).toBeLessThan(0.8);
  });

  it("tells the uneven machine type from the even one by its between-machine CV", () => {
    const random = seededRandom(7);
    const even = nestedSummary(experiment(random, 8, 4, 100, 0.2, 1));
    const uneven = nestedSummary(experiment(random, 8, 4, 100, 5, 1));
    expect(uneven.between_cv_ci_low!).toBeGreaterThan(even.between_cv_ci_high!);
    expect(uneven.within_cv!).toBeCloseTo(0.01, 2);
  });
});
