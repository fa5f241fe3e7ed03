/**
 * The statistics of repeated measurements: a sample's summary with a Student-t confidence
 * interval, and Welch's test between two samples with the ratio of their means. Closed forms,
 * no resampling: the same figures give the same answer on every server, and a comparison of
 * two executions is reproducible.
 */

export interface Summary {
  n: number;
  mean: number;
  /** Sample standard deviation (n - 1); 0 for one value. */
  stddev: number;
  min: number;
  max: number;
  /** The confidence interval of the mean; both ends equal the mean for one value, which says nothing of its spread. */
  ci_low: number;
  ci_high: number;
  /** stddev / |mean|; 0 when the mean is 0 or there is one value. */
  cv: number;
}

export function summarize(values: readonly number[], confidence = 0.95): Summary {
  if (values.length === 0) throw new RangeError("a summary needs at least one value");
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) : 0;
  const stddev = Math.sqrt(variance);
  const half = n > 1 ? studentTQuantile(1 - (1 - confidence) / 2, n - 1) * (stddev / Math.sqrt(n)) : 0;
  return {
    n,
    mean,
    stddev,
    min: Math.min(...values),
    max: Math.max(...values),
    ci_low: mean - half,
    ci_high: mean + half,
    cv: n > 1 && mean !== 0 ? stddev / Math.abs(mean) : 0,
  };
}

export interface RatioTest {
  /** mean(other) / mean(baseline). */
  ratio: number;
  /** Its confidence interval (delta method, Welch-Satterthwaite degrees of freedom); null when it cannot be told (one value on a side, a zero mean). */
  ci_low: number | null;
  ci_high: number | null;
  /** Welch's two-sided p-value for a difference of the means; null when a side has one value. */
  p_value: number | null;
}

/** Welch's test of `other` against `baseline`, and the ratio of their means. */
export function compareSamples(baseline: Summary, other: Summary, confidence = 0.95): RatioTest {
  const ratio = baseline.mean === 0 ? (other.mean === 0 ? 1 : Number.POSITIVE_INFINITY) : other.mean / baseline.mean;
  if (baseline.n < 2 || other.n < 2) return { ratio, ci_low: null, ci_high: null, p_value: null };
  const vb = baseline.stddev ** 2 / baseline.n;
  const vo = other.stddev ** 2 / other.n;
  const se = Math.sqrt(vb + vo);
  let p_value: number;
  let df: number;
  if (se === 0) {
    // Two samples without spread: they differ for certain, or not at all.
    p_value = other.mean === baseline.mean ? 1 : 0;
    df = baseline.n + other.n - 2;
  } else {
    df = (vb + vo) ** 2 / (vb ** 2 / (baseline.n - 1) + vo ** 2 / (other.n - 1));
    const t = (other.mean - baseline.mean) / se;
    p_value = 2 * (1 - studentTCdf(Math.abs(t), df));
  }
  if (baseline.mean === 0 || !Number.isFinite(ratio)) return { ratio, ci_low: null, ci_high: null, p_value };
  // Var(o/b) ≈ r² (Var(o)/o² + Var(b)/b²), with the means' variances.
  const seRatio = Math.abs(ratio) * Math.sqrt((other.mean === 0 ? 0 : vo / other.mean ** 2) + vb / baseline.mean ** 2);
  const half = studentTQuantile(1 - (1 - confidence) / 2, df) * seRatio;
  return { ratio, ci_low: ratio - half, ci_high: ratio + half, p_value };
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (any positive real df). */
export function studentTCdf(t: number, df: number): number {
  const x = df / (df + t * t);
  const tail = 0.5 * regularizedIncompleteBeta(x, df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t for which P(T ≤ t) = p, by bisection on the CDF: plenty fast for the few calls a comparison makes. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError("p must be between 0 and 1");
  let lo = -1e3;
  let hi = 1e3;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** I_x(a, b), by Lentz's continued fraction (Numerical Recipes, betacf). */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast on this side; the other side by symmetry.
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a - 1 + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + 1 + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 3e-16) break;
  }
  return h;
}

/** ln Γ(x), Lanczos (g = 7, n = 9). */
export function logGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let s = g[0];
  for (let i = 1; i < 9; i++) s += g[i] / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(s);
}
