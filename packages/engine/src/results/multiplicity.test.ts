import { describe, expect, it } from "vitest";
import { benjaminiHochberg, holm } from "./multiplicity.js";

// The figures R's p.adjust(p, "holm") and p.adjust(p, "BH") give, worked by hand: Holm multiplies the i-th smallest by k − i + 1, BH the i-th largest by k / (k − i + 1), each kept monotone.
describe("adjusted p-values", () => {
  const p = [0.01, 0.04, 0.03, 0.005];
  it("adjusts by Holm's step-down as R does", () => {
    const h = holm(p);
    for (const [i, v] of [0.03, 0.06, 0.06, 0.02].entries()) expect(h[i]).toBeCloseTo(v, 10);
  });
  it("adjusts by Benjamini–Hochberg as R does", () => {
    const q = benjaminiHochberg(p);
    for (const [i, v] of [0.02, 0.04, 0.04, 0.02].entries()) expect(q[i]).toBeCloseTo(v, 10);
  });
  it("leaves an empty family empty", () => {
    expect(holm([])).toEqual([]);
  });
});
