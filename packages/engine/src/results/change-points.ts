/**
 * Change points of a metric over time: one value per run (its mean), in run order. Where the
 * series moves to a new level, E-divisive with means (./e-divisive.ts) finds the first run of
 * the new level, and each change is told as the relative change of the mean between the runs
 * since the previous change and the runs until the next one, with its confidence interval
 * (./statistics.ts, the delta method and Welch's degrees of freedom).
 *
 * The defaults (see CHANGE_POINT_DEFAULTS) and why:
 * - significance 0.01: each test of a flat series reports a change with probability 0.01, so
 *   about one metric in a hundred shows a false change per analysis. MongoDB's 0.05 would make
 *   that one in twenty, too many alerts to triage; Otava's 0.001 is the level of its t-test and
 *   would need thousands of shuffles to be reached by a permutation test.
 * - 199 permutations (R's ecp package's default): the smallest p-value they can give is 0.005,
 *   under the level, and a change is kept when at most one shuffle of 199 scores as high.
 * - 5 runs at least on each side of a change: fewer and one or two outlying runs at the end of a
 *   series read as a new level; more and a real change is told that many runs later.
 * - the seed 1234 (MongoDB's): the shuffles are drawn from a seeded generator, so the same
 *   series gives the same change points on every server and every run.
 */
import { eDivisive } from "./e-divisive.js";
import { type SeededRandom, seededRandom } from "./seeded-random.js";
import { compareSamples, summarize } from "./statistics.js";

export const CHANGE_POINT_DEFAULTS = {
  significance: 0.01,
  permutations: 199,
  minSegment: 5,
  seed: 1234,
  confidence: 0.95,
  /** Otava's window length: checkNewPoint re-examines this many of the latest runs. */
  window: 50,
} as const;

export interface ChangePointOptions {
  /** A change is reported when its permutation p-value is at most this. */
  significance?: number;
  /** Shuffles per significance test. */
  permutations?: number;
  /** Fewest runs on each side of a change; a series shorter than twice this reports none. */
  minSegment?: number;
  /** Where the shuffles come from; a new `seededRandom(CHANGE_POINT_DEFAULTS.seed)` for each call when absent. */
  random?: SeededRandom;
  /** The confidence of the interval of each change's size. */
  confidence?: number;
}

export interface ChangePoint {
  /** The first run of the new level. */
  index: number;
  /** The runs since the previous change (or the series' start). */
  before: { mean: number; n: number };
  /** The runs from this change until the next one (or the series' end). */
  after: { mean: number; n: number };
  /** after.mean / before.mean − 1: 0.1 is 10% more. */
  size: number;
  /** Its confidence interval; null when it cannot be told (a zero mean before). */
  size_ci_low: number | null;
  size_ci_high: number | null;
  /** The permutation test's p-value when the change was found; at least 1 / (permutations + 1). */
  p_value: number;
}

export function detectChangePoints(values: readonly number[], options: ChangePointOptions = {}): ChangePoint[] {
  const o = resolve(options);
  if (!values.every(Number.isFinite)) throw new RangeError("change points need finite values");
  const splits = eDivisive(values, o);
  const bounds = [0, ...splits.map((s) => s.index), values.length];
  return splits.map((split, i) => {
    const before = summarize(values.slice(bounds[i], bounds[i + 1]));
    const after = summarize(values.slice(bounds[i + 1], bounds[i + 2]));
    const test = compareSamples(before, after, o.confidence);
    return {
      index: split.index,
      before: { mean: before.mean, n: before.n },
      after: { mean: after.mean, n: after.n },
      size: test.ratio - 1,
      size_ci_low: test.ci_low === null ? null : test.ci_low - 1,
      size_ci_high: test.ci_high === null ? null : test.ci_high - 1,
      p_value: split.p_value,
    };
  });
}

export interface NewPointCheck {
  /** The index of the first run examined: the change points are those of series[window_start..]. */
  window_start: number;
  /** Indices in the whole series; `before` and `after` count only runs inside the window. */
  change_points: ChangePoint[];
}

/**
 * After a run is appended: the change points of the latest `window` runs, which is all the new
 * run can have changed once the earlier ones were checked. A change is reported only with at
 * least `minSegment` runs after it, so it shows some runs after it happened. The caller
 * keeps change points by index: a change found again on the next check is the same change.
 */
export function checkNewPoint(series: readonly number[], options: ChangePointOptions & { window?: number } = {}): NewPointCheck {
  const window = options.window ?? CHANGE_POINT_DEFAULTS.window;
  if (!Number.isInteger(window) || window < 2) throw new RangeError("the window is a whole number of runs, at least 2");
  const window_start = Math.max(0, series.length - window);
  const found = detectChangePoints(series.slice(window_start), options);
  return { window_start, change_points: found.map((c) => ({ ...c, index: c.index + window_start })) };
}

/**
 * Whether a change of `size` is a regression or an improvement for a metric where `better` is
 * higher or lower. A size of 0 (a change in spread alone) is no regression.
 */
export function direction(size: number, better: "higher" | "lower"): "regression" | "improvement" {
  if (Number.isNaN(size)) throw new RangeError("a change's size is a number");
  const worse = better === "higher" ? size < 0 : size > 0;
  return worse ? "regression" : "improvement";
}

function resolve(options: ChangePointOptions) {
  const o = {
    significance: options.significance ?? CHANGE_POINT_DEFAULTS.significance,
    permutations: options.permutations ?? CHANGE_POINT_DEFAULTS.permutations,
    minSegment: options.minSegment ?? CHANGE_POINT_DEFAULTS.minSegment,
    random: options.random ?? seededRandom(CHANGE_POINT_DEFAULTS.seed),
    confidence: options.confidence ?? CHANGE_POINT_DEFAULTS.confidence,
  };
  if (!(o.significance > 0 && o.significance < 1)) throw new RangeError("the significance is between 0 and 1");
  if (!Number.isInteger(o.permutations) || o.permutations < 1) throw new RangeError("the permutations are a whole number, at least 1");
  // Each side's within-distance average needs a pair of points.
  if (!Number.isInteger(o.minSegment) || o.minSegment < 2) throw new RangeError("the minimum segment is a whole number of runs, at least 2");
  if (!(o.confidence > 0 && o.confidence < 1)) throw new RangeError("the confidence is between 0 and 1");
  return o;
}
