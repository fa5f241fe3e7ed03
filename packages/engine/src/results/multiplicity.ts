/**
 * Adjusted p-values for a family of claims, so that a report's many cells do not make a false
 * claim likely by their number alone. Holm (1979) controls the family-wise error rate (the chance
 * that any claim of a report is wrong) and is what reports use: a manager reads each claim on its
 * own and must be able to trust every one. Benjamini & Hochberg (1995) controls the false
 * discovery rate (the expected share of wrong claims among those made), less strict, for a
 * screening of many cells where a few wrong claims are acceptable.
 */
export type Adjustment = "holm" | "benjamini_hochberg";

/** Holm's step-down adjusted p-values, in the order given. */
export function holm(pValues: readonly number[]): number[] {
  const k = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(k);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (k - rank) * p));
    out[i] = running;
  });
  return out;
}

/** Benjamini & Hochberg's step-up adjusted p-values (q-values), in the order given. */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const k = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0]);
  const out = new Array<number>(k);
  let running = 1;
  order.forEach(([p, i], fromTop) => {
    running = Math.min(running, (p * k) / (k - fromTop));
    out[i] = running;
  });
  return out;
}

export function adjust(pValues: readonly number[], adjustment: Adjustment): number[] {
  return adjustment === "holm" ? holm(pValues) : benjaminiHochberg(pValues);
}
