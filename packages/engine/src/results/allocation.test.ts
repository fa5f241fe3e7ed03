import { describe, expect, it } from "vitest";
import { allocate, expectedRelativeHalfWidth, nextStep, type LevelCosts, type VarianceComponents } from "./allocation.js";
import { seededRandom } from "./seeded-random.js";

/** The cheapest m × n that reaches h, by trying every count. */
function bruteForce(c: VarianceComponents, costs: LevelCosts, h: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let n = 1; n <= 100; n++)
    for (let m = 2; m <= 400; m++) {
      const cost = m * (costs.machine + n * costs.run);
      if (cost >= best) break;
      if (expectedRelativeHalfWidth(c, m, n) <= h) {
        best = cost;
        break;
      }
    }
  return best;
}

describe("machines and runs at the least cost", () => {
  it("puts runs where machines are dear and machines where they differ", () => {
    const differ = allocate({ components: { between: 16, within: 1, mean: 100 }, costs: { machine: 10, run: 1 }, relativeHalfWidth: 0.02 });
    const noisy = allocate({ components: { between: 0.25, within: 16, mean: 100 }, costs: { machine: 10, run: 1 }, relativeHalfWidth: 0.02 });
    expect(differ.runs).toBeLessThan(noisy.runs);
    expect(differ.machines).toBeGreaterThan(noisy.machines);
    expect(differ.stop).toBe("precision_reached");
    expect(differ.expectedRelativeHalfWidth).toBeLessThanOrEqual(0.02);
  });

  it("comes within 10% of the cost-optimal counts found by brute force", () => {
    const random = seededRandom(42);
    for (let i = 0; i < 40; i++) {
      const components = { between: 0.1 + 10 * random.float(), within: 0.1 + 20 * random.float(), mean: 100 };
      const costs = { machine: 1 + 30 * random.float(), run: 0.2 + 3 * random.float() };
      const h = 0.01 + 0.03 * random.float();
      const a = allocate({ components, costs, relativeHalfWidth: h });
      const best = bruteForce(components, costs, h);
      expect(a.expectedRelativeHalfWidth).toBeLessThanOrEqual(h);
      expect(a.cost / best, JSON.stringify({ components, costs, h, a, best })).toBeLessThanOrEqual(1.1);
    }
  });

  it("stops at the budget, and says so", () => {
    const a = allocate({ components: { between: 16, within: 4, mean: 100 }, costs: { machine: 10, run: 1 }, relativeHalfWidth: 0.005, budget: 100 });
    expect(a.stop).toBe("budget_spent");
    expect(a.cost).toBeLessThanOrEqual(100);
    expect(a.expectedRelativeHalfWidth).toBeGreaterThan(0.005);
  });

  it("adds a machine where machines differ, a run where runs are noisy", () => {
    expect(nextStep({ between: 16, within: 1, mean: 100 }, { machine: 5, run: 1 }, 3, 3)).toBe("machine");
    expect(nextStep({ between: 0.1, within: 16, mean: 100 }, { machine: 50, run: 1 }, 3, 2)).toBe("run");
  });
});
