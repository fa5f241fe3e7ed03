/**
 * The two-level model of repeated measurements (Kalibera & Jones, "Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013): a target's figure varies from machine to machine of its type
 * (between-machine variance σ²_b) and from run to run on one machine (within-machine σ²_w). The
 * mean of n runs on each of m machines has variance σ²_b/m + σ²_w/(m·n), so its interval comes
 * from the spread of the machines' means with m − 1 degrees of freedom: pooling the runs as if
 * each were independent measures the run-to-run noise only, and its interval is far too narrow
 * whenever machines differ (nested-summary.test.ts shows how far).
 */
import { chiSquareQuantile } from "./chi-square.js";
import { studentTQuantile } from "./statistics.js";

export interface NestedSummary {
  /** How many machines measured it. */
  machines: number;
  /** How many values in all (runs over every machine). */
  runs: number;
  /** The mean of the machines' means: each machine weighs the same, as the machine type's mean is sampled by machines. */
  mean: number;
  ci_low: number;
  ci_high: number;
  /**
   * What the interval measures: `machines` (the spread of the machines' means, the machine type's
   * mean), or `runs` when a single machine measured it (that machine's mean only).
   */
  interval_from: "machines" | "runs";
  /** σ_b / |mean|, with its interval; null with one machine. */
  between_cv: number | null;
  between_cv_ci_low: number | null;
  between_cv_ci_high: number | null;
  /** σ_w / |mean|, with its interval; null when no machine ran twice. */
  within_cv: number | null;
  within_cv_ci_low: number | null;
  within_cv_ci_high: number | null;
  /** The standard error of `mean` and its degrees of freedom (what a ratio's interval and a claim read). */
  se: number;
  df: number;
  /** The variance components themselves, for planning (allocation.ts). */
  between_variance: number | null;
  within_variance: number | null;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** What a mean's interval and a ratio rest on: the estimate, its standard error, their degrees of freedom, and how many independent units. */
export interface MeanEstimate {
  mean: number;
  se: number;
  df: number;
  /** Machines, or runs where one machine measured it. */
  units: number;
}

/**
 * The mean of values grouped by machine with its standard error: from the machines' means with
 * m − 1 degrees of freedom when several machines measured it, from the runs otherwise (df 0, se 0
 * for a single value).
 */
export function meanEstimate(groups: readonly (readonly number[])[]): MeanEstimate {
  const machines = groups.filter((g) => g.length > 0);
  if (machines.length === 0) throw new RangeError("a summary needs at least one value");
  const sample = machines.length > 1 ? machines.map(mean) : machines[0];
  const n = sample.length;
  const grand = mean(sample);
  const variance = n > 1 ? sample.reduce((a, x) => a + (x - grand) ** 2, 0) / (n - 1) : 0;
  return { mean: grand, se: Math.sqrt(variance / n), df: n - 1, units: n };
}

/**
 * The nested summary of values grouped by machine (each group one machine's runs). The variance
 * components are the ANOVA (method of moments) estimates: σ²_w the pooled within-machine
 * variance, σ²_b the variance of the machines' means less what the runs' noise puts into it
 * (σ²_w times the mean of 1/n_i), at least 0. Their intervals are chi-square ones for σ²_w and
 * Graybill & Wang's modified large-sample interval for σ²_b (a difference of mean squares).
 */
export function nestedSummary(groups: readonly (readonly number[])[], confidence = 0.95): NestedSummary {
  const machines = groups.filter((g) => g.length > 0);
  if (machines.length === 0) throw new RangeError("a summary needs at least one value");
  const m = machines.length;
  const runs = machines.reduce((a, g) => a + g.length, 0);
  const alpha = 1 - confidence;
  const means = machines.map(mean);
  const estimate = meanEstimate(machines);
  const grand = estimate.mean;

  const dfWithin = runs - m;
  const within = dfWithin > 0 ? machines.reduce((a, g, i) => a + g.reduce((b, v) => b + (v - means[i]) ** 2, 0), 0) / dfWithin : null;

  const cvOf = (variance: number | null) => (variance === null || grand === 0 ? null : Math.sqrt(Math.max(0, variance)) / Math.abs(grand));
  let interval: { low: number; high: number; from: "machines" | "runs" };
  let between: { value: number; low: number; high: number } | null = null;
  if (m > 1) {
    const s2 = means.reduce((a, x) => a + (x - grand) ** 2, 0) / (m - 1);
    const half = studentTQuantile(1 - alpha / 2, m - 1) * Math.sqrt(s2 / m);
    interval = { low: grand - half, high: grand + half, from: "machines" };
    const c = mean(machines.map((g) => 1 / g.length));
    const w = within ?? 0;
    between = { value: Math.max(0, s2 - c * w), ...mlsInterval(s2, m - 1, c * w, dfWithin, alpha) };
  } else {
    const half = within === null ? 0 : studentTQuantile(1 - alpha / 2, dfWithin) * Math.sqrt(within / runs);
    interval = { low: grand - half, high: grand + half, from: "runs" };
  }
  const withinInterval =
    within === null
      ? null
      : { low: (dfWithin * within) / chiSquareQuantile(1 - alpha / 2, dfWithin), high: (dfWithin * within) / chiSquareQuantile(alpha / 2, dfWithin) };
  return {
    machines: m,
    runs,
    mean: grand,
    ci_low: interval.low,
    ci_high: interval.high,
    interval_from: interval.from,
    between_cv: cvOf(between?.value ?? null),
    between_cv_ci_low: cvOf(between?.low ?? null),
    between_cv_ci_high: cvOf(between?.high ?? null),
    within_cv: cvOf(within),
    within_cv_ci_low: cvOf(withinInterval?.low ?? null),
    within_cv_ci_high: cvOf(withinInterval?.high ?? null),
    between_variance: between?.value ?? null,
    within_variance: within,
    se: estimate.se,
    df: estimate.df,
  };
}

/**
 * Graybill & Wang's (1980) modified large-sample interval of θ = S1 − S2, S1 and S2 independent
 * mean squares with n1 and n2 degrees of freedom (here S2 is already scaled by its constant).
 * The cross terms, which need F quantiles, are left out: they matter only when both mean squares
 * are of a size, and leaving them out widens the interval. Clamped at 0: a variance is not negative.
 */
function mlsInterval(s1: number, n1: number, s2: number, n2: number, alpha: number): { low: number; high: number } {
  const theta = s1 - s2;
  const g1 = 1 - n1 / chiSquareQuantile(1 - alpha / 2, n1);
  const h1 = n1 / chiSquareQuantile(alpha / 2, n1) - 1;
  if (n2 <= 0 || s2 === 0) return { low: Math.max(0, theta - g1 * s1), high: Math.max(0, theta + h1 * s1) };
  const g2 = 1 - n2 / chiSquareQuantile(1 - alpha / 2, n2);
  const h2 = n2 / chiSquareQuantile(alpha / 2, n2) - 1;
  return {
    low: Math.max(0, theta - Math.sqrt((g1 * s1) ** 2 + (h2 * s2) ** 2)),
    high: Math.max(0, theta + Math.sqrt((h1 * s1) ** 2 + (g2 * s2) ** 2)),
  };
}
