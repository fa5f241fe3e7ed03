/**
 * What can make a summary wrong, found and said: warm-up (a machine's first runs unlike the
 * rest), outliers, and a skewed metric whose t interval is wrong. Each check is pure; what a
 * summary found is said beside its figures (FigureVariability), and nothing is dropped unasked.
 */
import { type SeededRandom, seededRandom } from "./seeded-random.js";

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * How many leading runs are warm-up, by MSER (White 1997, the marginal standard error rule): the
 * truncation d that minimises Σ(x_i − mean)² / (n − d)² over what remains, at most half the runs.
 * On a short steady series MSER cuts a few runs by chance, so its cut stands only when the runs
 * it cuts are clearly unlike the rest: their mean more than 3 standard deviations of the rest
 * away from the rest's mean. Fewer than 4 runs tell nothing.
 */
export function warmupRuns(values: readonly number[]): number {
  const n = values.length;
  if (n < 4) return 0;
  let best = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let d = 0; d <= Math.floor(n / 2); d++) {
    const rest = values.slice(d);
    const m = mean(rest);
    const score = rest.reduce((a, v) => a + (v - m) ** 2, 0) / rest.length ** 2;
    // Only a clearly smaller error moves the cut: equal ones keep the runs.
    if (score < bestScore * (1 - 1e-9)) {
      best = d;
      bestScore = score;
    }
  }
  if (best === 0) return 0;
  const rest = values.slice(best);
  const m = mean(rest);
  const sd = Math.sqrt(rest.reduce((a, v) => a + (v - m) ** 2, 0) / Math.max(1, rest.length - 1));
  return Math.abs(mean(values.slice(0, best)) - m) > 3 * sd ? best : 0;
}

/** The rule outliers are flagged by: Iglewicz & Hoaglin's modified z-score, |0.6745·(x − median)/MAD| > 3.5. */
export const OUTLIER_RULE = "modified_z_above_3.5";

/** The indices of the outliers by OUTLIER_RULE; with no spread about the median (MAD 0), every value off the median. */
export function outliers(values: readonly number[]): number[] {
  if (values.length < 3) return [];
  const med = median(values);
  const mad = median(values.map((v) => Math.abs(v - med)));
  return values.flatMap((v, i) => {
    if (mad === 0) return v !== med ? [i] : [];
    return Math.abs((0.6745 * (v - med)) / mad) > 3.5 ? [i] : [];
  });
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The adjusted sample skewness G1 (as SAS and Excel's SKEW); 0 below 3 values or without spread. */
export function skewness(values: readonly number[]): number {
  const n = values.length;
  if (n < 3) return 0;
  const m = mean(values);
  const m2 = values.reduce((a, v) => a + (v - m) ** 2, 0) / n;
  if (m2 === 0) return 0;
  const m3 = values.reduce((a, v) => a + (v - m) ** 3, 0) / n;
  return ((m3 / m2 ** 1.5) * Math.sqrt(n * (n - 1))) / (n - 2);
}

/** Beyond this |G1| (and from 8 values) the t interval of a mean is taken as wrong, and the bootstrap's is given. */
export const SKEWED = 1;

/**
 * The bootstrap percentile interval of the mean of `values` (Efron; 2,000 resamples). Seeded from
 * the values themselves, so the same figures give the same interval on every server.
 */
export function bootstrapMeanInterval(values: readonly number[], confidence = 0.95, resamples = 2000, random: SeededRandom = seededRandom(seedOf(values))) {
  const n = values.length;
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[random.int(n)];
    means[b] = sum / n;
  }
  means.sort();
  const alpha = 1 - confidence;
  return { low: means[Math.floor((alpha / 2) * (resamples - 1))], high: means[Math.ceil((1 - alpha / 2) * (resamples - 1))] };
}

function seedOf(values: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) h = Math.imul(h ^ Math.round(v * 1e6), 0x85ebca6b) ^ (h >>> 13);
  return h | 0;
}
