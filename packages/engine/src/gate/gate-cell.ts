import { type RatioEstimate, ratioEstimate } from "../results/claims.js";
import { meanEstimate, type MeanEstimate } from "../results/nested-summary.js";
import { studentTQuantile } from "../results/statistics.js";

/** A point gated: its run's summary. */
export interface GatedPoint {
  n: number;
  mean: number;
  ci_low: number | null;
  ci_high: number | null;
}

/**
 * The point against its baseline (the means of the history's points, each one unit): the ratio
 * point / baseline with its standard error. A new point is one draw of the series' level, so its
 * error is the spread between the history's points (which holds each run's own noise) or its own
 * run's, whichever is larger; null when either side has nothing to tell a spread from (a history
 * of fewer than two points).
 */
export function gateEstimate(point: GatedPoint, history: readonly number[], confidence: number): RatioEstimate | null {
  if (history.length < 2) return null;
  const base = meanEstimate([history]);
  const between = base.se * Math.sqrt(base.units);
  const within = withinRun(point, confidence);
  const own: MeanEstimate = within !== null && within.se > between ? within : { mean: point.mean, se: between, df: base.df, units: 1 };
  if (base.mean === 0) return null;
  const ratio = own.mean / base.mean;
  const se = Math.abs(ratio) * Math.sqrt((own.mean === 0 ? 0 : own.se ** 2 / own.mean ** 2) + base.se ** 2 / base.mean ** 2);
  const vb = base.se ** 2;
  const vo = own.se ** 2;
  const df = vb + vo === 0 ? base.df + own.df : (vb + vo) ** 2 / (vb ** 2 / base.df + vo ** 2 / own.df);
  return { ratio, se, df, units: base.units };
}

/**
 * The point against another target's point of the same run (a plan's baseline target): the ratio
 * of their means, each with its own repetitions' spread (Welch's degrees of freedom); null when
 * either has a single repetition (no spread to tell a difference from) or the other's mean is 0.
 */
export function pairEstimate(point: GatedPoint, base: GatedPoint, confidence: number): RatioEstimate | null {
  const own = withinRun(point, confidence);
  const other = withinRun(base, confidence);
  return own === null || other === null ? null : ratioEstimate(other, own);
}

/** The point's own run: its mean's standard error from its interval; null with one repetition. */
function withinRun(point: GatedPoint, confidence: number): MeanEstimate | null {
  if (point.n < 2 || point.ci_low === null || point.ci_high === null) return null;
  const t = studentTQuantile(1 - (1 - confidence) / 2, point.n - 1);
  const se = (point.ci_high - point.ci_low) / 2 / t;
  return { mean: point.mean, se, df: point.n - 1, units: 1 };
}

/** The ratio's two-sided interval at `confidence`. */
export function ratioInterval(e: RatioEstimate, confidence: number): { low: number; high: number } {
  const half = e.se === 0 ? 0 : studentTQuantile(1 - (1 - confidence) / 2, e.df) * e.se;
  return { low: e.ratio - half, high: e.ratio + half };
}
