import { describe, expect, it } from "vitest";
import { claimSentence, decideClaims, ratioEstimate, type RatioEstimate } from "./claims.js";
import { meanEstimate } from "./nested-summary.js";
import { gaussian, seededRandom, type SeededRandom } from "./seeded-random.js";

const estimate = (ratio: number, se: number): RatioEstimate => ({ ratio, se, df: 10, units: 6 });
const one = (e: RatioEstimate, better: "higher" | "lower" | undefined = "higher", margin = 0.02) => decideClaims([{ estimate: e, better }], margin)[0];

function machines(random: SeededRandom, m: number, n: number, mu: number, between: number, within: number): number[][] {
  return Array.from({ length: m }, () => {
    const machine = mu + between * gaussian(random);
    return Array.from({ length: n }, () => machine + within * gaussian(random));
  });
}

describe("claims with a margin", () => {
  it("gives each of the five verdicts, and inconclusive, on constructed estimates", () => {
    expect(one(estimate(1.1, 0.01)).verdict).toBe("better");
    expect(one(estimate(0.9, 0.01)).verdict).toBe("worse");
    expect(one(estimate(1.0, 0.005)).verdict).toBe("equivalent");
    // 1.03 ± ~0.022: above 0.98 for sure, not surely above 1.02.
    expect(one(estimate(1.03, 0.01)).verdict).toBe("not_worse");
    expect(one(estimate(0.97, 0.01)).verdict).toBe("not_better");
    const unsure = one(estimate(1.0, 0.05));
    expect(unsure.verdict).toBe("inconclusive");
    expect(unsure.settle_n).toBeGreaterThan(6);
    // Lower is better: a ratio of 0.9 is better.
    expect(one(estimate(0.9, 0.01), "lower").verdict).toBe("better");
  });

  it("says each verdict in a sentence", () => {
    const subject = { label: "c6a.large", machines: 6, runs: 3, between_cv: 0.01 };
    const baseline = { label: "m6i.large", machines: 6, runs: 3, between_cv: 0.042 };
    const e = estimate(1.031, 0.0091);
    const claim = one(e, "higher", 0.01);
    expect(claim.verdict).toBe("better");
    expect(claimSentence(claim, e, { subject, baseline, metric: "events_per_second", better: "higher" })).toBe(
      "c6a.large is 3.1% better than m6i.large on events_per_second (higher is better; 95% CI 1.1% to 5.1%, 6 machines × 3 runs each; instances of m6i.large differ by 4.2% between machines).",
    );
    const unsure = estimate(1.0, 0.05);
    expect(claimSentence(one(unsure, "lower"), unsure, { subject, baseline, metric: "latency", better: "lower" })).toMatch(
      /^Whether c6a.large differs from m6i.large on latency by more than 2.0% cannot be told yet: .* About \d+ machines each would likely settle it\.$/,
    );
  });

  it("wrongly says equivalent at most 5% of the time when the true ratio sits at the margin's edge (1,000 experiments)", () => {
    const random = seededRandom(2013);
    let wrong = 0;
    for (let i = 0; i < 1000; i++) {
      const base = meanEstimate(machines(random, 8, 3, 100, 1, 0.5));
      const other = meanEstimate(machines(random, 8, 3, 102, 1, 0.5));
      if (one(ratioEstimate(base, other)!).verdict === "equivalent") wrong++;
    }
    expect(wrong / 1000).toBeLessThanOrEqual(0.05);
  });

  it("keeps a 50-cell report of pure noise free of any wrong claim in at least 95% of 1,000 experiments", () => {
    const random = seededRandom(1979);
    for (const margin of [0, 0.02]) {
      let anyWrong = 0;
      for (let i = 0; i < 1000; i++) {
        const family = Array.from({ length: 50 }, () => ({
          estimate: ratioEstimate(meanEstimate(machines(random, 4, 2, 100, 1.5, 1)), meanEstimate(machines(random, 4, 2, 100, 1.5, 1)))!,
          better: "higher" as const,
        }));
        // Pure noise: the true ratio is 1, so only better, worse (and with no margin, not_worse or not_better) are wrong.
        const wrong = decideClaims(family, margin).some(
          (c) => c.verdict === "better" || c.verdict === "worse" || (margin === 0 && c.verdict.startsWith("not_")),
        );
        if (wrong) anyWrong++;
      }
      expect(anyWrong / 1000, `margin ${margin}`).toBeLessThanOrEqual(0.05);
    }
  });
});
