/**
 * The chi-square distribution, for the intervals of variances (a variance component's interval
 * is its estimate scaled by chi-square quantiles). Written beside Student's t (statistics.ts) on
 * the same ln Γ rather than taken from a library: the one well-kept typed package that has it
 * (@stdlib/stats-base-dists-chisquare-quantile) brings some two hundred packages with it, and
 * jstat has no types. Checked against R's pchisq and qchisq in chi-square.test.ts.
 */
import { logGamma } from "./statistics.js";

/** P(X ≤ x) for chi-square with `df` degrees of freedom (any positive real df). */
export function chiSquareCdf(x: number, df: number): number {
  if (x <= 0) return 0;
  return regularizedLowerGamma(df / 2, x / 2);
}

/** The x for which P(X ≤ x) = p, by bisection on the CDF (a report makes a few dozen calls). */
export function chiSquareQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError("p must be between 0 and 1");
  let lo = 0;
  let hi = Math.max(1, df);
  while (chiSquareCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (chiSquareCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** P(a, x) = γ(a, x) / Γ(a): its series below a + 1, Lentz's continued fraction for Q above (Numerical Recipes, gammp). */
function regularizedLowerGamma(a: number, x: number): number {
  if (x <= 0) return 0;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break;
    }
    return sum * front;
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return 1 - front * h;
}
