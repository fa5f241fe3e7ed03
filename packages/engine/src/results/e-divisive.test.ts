import { describe, expect, it } from "vitest";
import { eDivisive, qHatProfile } from "./e-divisive.js";
import { seededRandom, shuffle } from "./seeded-random.js";

/** Q̂(τ) straight from Matteson & James's definition, O(L²) per τ: the reference the fast scan must match. */
function qHatByDefinition(values: number[], tau: number): number {
  const x = values.slice(0, tau);
  const y = values.slice(tau);
  const n = x.length;
  const m = y.length;
  let between = 0;
  for (const a of x) for (const b of y) between += Math.abs(a - b);
  const within = (s: number[]) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) for (let j = i + 1; j < s.length; j++) sum += Math.abs(s[i] - s[j]);
    return sum;
  };
  const energy = (2 * between) / (n * m) - (2 * within(x)) / (n * (n - 1)) - (2 * within(y)) / (m * (m - 1));
  return ((n * m) / (n + m)) * energy;
}

describe("E-divisive with means", () => {
  it("computes Q̂ at every split as the definition does, ties included", () => {
    const random = seededRandom(7);
    // Values with repeats, so that ties of rank are exercised.
    const values = Array.from({ length: 37 }, () => random.int(12) + (random.int(3) === 0 ? 20 : 0));
    const minSegment = 3;
    const profile = qHatProfile(values, minSegment);
    for (let tau = 0; tau < values.length; tau++) {
      if (tau < minSegment || tau > values.length - minSegment) expect(profile[tau]).toBeNaN();
      else expect(profile[tau]).toBeCloseTo(qHatByDefinition(values, tau), 9);
    }
  });

  it("is largest at the step of a clean step", () => {
    const values = [...Array(15).fill(1), ...Array(10).fill(3)];
    const profile = qHatProfile(values, 2);
    let best = 2;
    for (let t = 2; t <= 23; t++) if (profile[t] > profile[best]) best = t;
    expect(best).toBe(15);
  });

  it("stops shuffling once the test cannot pass, and runs them all for a change it keeps", () => {
    let draws = 0;
    const inner = seededRandom(1);
    const random = {
      int: (below: number) => {
        draws++;
        return inner.int(below);
      },
      float: () => inner.float(),
    };
    const flat = Array(40).fill(5);
    expect(eDivisive(flat, { significance: 0.01, permutations: 199, minSegment: 5, random })).toEqual([]);
    // A constant series: every shuffle scores as high, so the second one settles it (p ≥ 2/200 > 0.01).
    expect(draws).toBe(2 * 39);
    draws = 0;
    const step = [...Array(20).fill(5), ...Array(20).fill(6)];
    const found = eDivisive(step, { significance: 0.01, permutations: 199, minSegment: 5, random });
    expect(found.map((f) => f.index)).toEqual([20]);
    expect(draws).toBeGreaterThanOrEqual(199 * 39);
  });

  it("shuffles every order alike", () => {
    const random = seededRandom(3);
    const counts = new Map<string, number>();
    const items = [0, 1, 2];
    for (let i = 0; i < 6000; i++) {
      const key = shuffle(items, random).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const c of counts.values()) expect(Math.abs(c - 1000)).toBeLessThan(120);
  });
});
