import { summarize } from "../../results/statistics.js";

export interface GeometricMean {
  /** How many ratios it is of. */
  n: number;
  /** null without a ratio. */
  value: number | null;
  /** null with fewer than two ratios: one cell says nothing of the spread between cells. */
  ci_low: number | null;
  ci_high: number | null;
}

/**
 * The geometric mean of ratios, with its confidence interval taken on the log scale: the mean of
 * the logarithms ± t·se (Student's t, as every interval of the results), exponentiated. Ratios
 * multiply, so their logarithms are what averages: 2× and ½× cancel out to 1, and the interval
 * exponentiated stays above 0 and is as wide either way in proportion. The interval measures how
 * much the ratio varies from cell to cell (the benchmarks taken as a sample of workloads), not the
 * noise of each cell's repetitions, which each cell's own ratio interval shows. A ratio that is
 * not finite and above 0 has no logarithm and is left out.
 */
export function geometricMean(ratios: readonly number[], confidence: number): GeometricMean {
  const logs = ratios.filter((r) => Number.isFinite(r) && r > 0).map(Math.log);
  if (logs.length === 0) return { n: 0, value: null, ci_low: null, ci_high: null };
  const s = summarize(logs, confidence);
  const spread = logs.length > 1;
  return { n: logs.length, value: Math.exp(s.mean), ci_low: spread ? Math.exp(s.ci_low) : null, ci_high: spread ? Math.exp(s.ci_high) : null };
}
