/**
 * E-divisive with means (Matteson & James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", 2014), on one series of numbers, with its permutation test:
 * the method MongoDB's performance CI runs (signal-processing-algorithms) and Apache Otava
 * (formerly Hunter) keeps as its original algorithm.
 *
 * A segment is split where the energy divergence between its two sides is largest:
 *
 *   Q̂(τ) = nm/(n+m) · ( 2/(nm) Σ|x−y| − 2/(n(n−1)) Σ_{i<j}|xᵢ−xⱼ| − 2/(m(m−1)) Σ_{i<j}|yᵢ−yⱼ| )
 *
 * with X the n points before τ and Y the m points from τ to the segment's end (α = 1; the end is
 * the segment's, as in MongoDB's implementation, rather than searched for too). The split is
 * kept when the largest Q̂ beats the largest Q̂ of the series shuffled within its segments often
 * enough: p = (1 + #shuffles at least as large) / (1 + permutations), Phipson & Smyth's form,
 * never 0. Splitting goes on, one change at a time, until a test fails.
 *
 * All the Q̂ of a segment of L points cost O(L log L), not O(L²): one pass adds the points in
 * order to a Fenwick tree over their ranks, which gives the sum of distances within the first
 * k points; the sum of each point's distances to all the others, which no order changes, gives
 * the rest. A permutation only reorders the same values, so ranks and those sums are computed
 * once per segment.
 */
import { type SeededRandom, shuffle } from "./seeded-random.js";

export interface EDivisiveOptions {
  /** A split is kept when its p-value is at most this. */
  significance: number;
  /** Shuffles per test. */
  permutations: number;
  /** Fewest points on each side of a split. */
  minSegment: number;
  random: SeededRandom;
}

export interface FoundSplit {
  index: number;
  p_value: number;
  q_hat: number;
}

/** The change points of `values`, by index of the first point after each change, in order. */
export function eDivisive(values: readonly number[], options: EDivisiveOptions): FoundSplit[] {
  const { significance, permutations, minSegment, random } = options;
  if (values.length < 2 * minSegment) return [];
  // The distances are the same around any centre; around the mean they lose the fewest digits.
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const centred = Float64Array.from(values, (v) => v - mean);
  const scanner = new Scanner(values.length, minSegment);
  let segments = [new Segment(centred, 0, values.length)];
  const found: FoundSplit[] = [];
  for (;;) {
    const open = segments.filter((s) => s.length >= 2 * minSegment);
    if (open.length === 0) break;
    let best = open[0];
    for (const s of open) if (s.best(scanner).q > best.best(scanner).q) best = s;
    const { tau, q } = best.best(scanner);
    // Equal up to rounding counts as "at least as large": a shuffle that keeps both sides' values scores the same.
    const bar = q - 1e-9 * Math.abs(q);
    let larger = 0;
    for (let i = 0; i < permutations; i++) {
      let shuffled = Number.NEGATIVE_INFINITY;
      for (const s of open) shuffled = Math.max(shuffled, s.shuffledBest(scanner, random));
      if (shuffled >= bar) larger++;
      // Once the p-value cannot come back under the level, the rest of the shuffles cannot change the answer.
      if ((1 + larger) / (1 + permutations) > significance) break;
    }
    const p_value = (1 + larger) / (1 + permutations);
    if (p_value > significance) break;
    found.push({ index: best.start + tau, p_value, q_hat: q });
    segments = segments.flatMap((s) => (s === best ? [new Segment(centred, s.start, s.start + tau), new Segment(centred, s.start + tau, s.end)] : [s]));
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Q̂(τ) for each τ of `values` as one segment; NaN where a side would have fewer than `minSegment` points. For tests. */
export function qHatProfile(values: readonly number[], minSegment: number): Float64Array {
  const segment = new Segment(Float64Array.from(values), 0, values.length);
  const scanner = new Scanner(values.length, minSegment);
  const out = new Float64Array(values.length).fill(Number.NaN);
  scanner.scan(segment, segment.identity, out);
  return out;
}

class Segment {
  readonly length: number;
  /** The segment's values, in series order. */
  readonly values: Float64Array;
  /** Each value's rank (1-based, ties broken by position) among the segment's values. */
  readonly ranks: Int32Array;
  /** Each value's sum of distances to all the segment's values. */
  readonly spreads: Float64Array;
  /** Σ|xᵢ−xⱼ| over the segment's pairs. */
  readonly total: number;
  readonly identity: Int32Array;
  private readonly order: Int32Array;
  private found: { tau: number; q: number } | undefined;

  constructor(
    series: Float64Array,
    readonly start: number,
    readonly end: number,
  ) {
    const L = end - start;
    this.length = L;
    this.values = series.subarray(start, end);
    this.identity = Int32Array.from({ length: L }, (_, i) => i);
    this.order = this.identity.slice();
    this.ranks = new Int32Array(L);
    this.spreads = new Float64Array(L);
    const byValue = this.identity.slice().sort((a, b) => this.values[a] - this.values[b] || a - b);
    let all = 0;
    for (const i of byValue) all += this.values[i];
    let below = 0;
    let total = 0;
    byValue.forEach((i, r) => {
      const x = this.values[i];
      this.ranks[i] = r + 1;
      // r values at most x below it, L − r − 1 at least x above it.
      this.spreads[i] = x * r - below + (all - below - x) - x * (L - r - 1);
      below += x;
      total += this.spreads[i];
    });
    this.total = total / 2;
  }

  best(scanner: Scanner): { tau: number; q: number } {
    this.found ??= scanner.scan(this, this.identity);
    return this.found;
  }

  /** The largest Q̂ of the segment shuffled; each call shuffles the last order again, which is as uniform as shuffling the first. */
  shuffledBest(scanner: Scanner, random: SeededRandom): number {
    return scanner.scan(this, shuffle(this.order, random)).q;
  }
}

/** Work buffers for scanning segments of up to `capacity` points, reused across the thousands of scans of a test. */
class Scanner {
  /** The Fenwick tree: count and sum of the values added, interleaved (2r, 2r + 1) so that one node is one cache line. */
  private readonly tree: Float64Array;
  /** within[k]: Σ|xᵢ−xⱼ| over the pairs among the first k points. */
  private readonly within: Float64Array;
  /** spread[k]: Σ of the first k points' spreads (distances to every point of the segment). */
  private readonly spread: Float64Array;

  constructor(
    capacity: number,
    private readonly minSegment: number,
  ) {
    this.tree = new Float64Array(2 * (capacity + 1));
    this.within = new Float64Array(capacity + 1);
    this.spread = new Float64Array(capacity + 1);
  }

  /**
   * The best split of the segment read in `order` (its k-th point is `values[order[k]]`): τ,
   * counted from the segment's start, and its Q̂. Writes every Q̂ into `profile` when given.
   */
  scan(segment: Segment, order: Int32Array, profile?: Float64Array): { tau: number; q: number } {
    const { values, ranks, spreads, total } = segment;
    const { tree, within, spread } = this;
    const L = order.length;
    tree.fill(0, 0, 2 * (L + 1));
    within[0] = 0;
    spread[0] = 0;
    let seenSum = 0;
    for (let k = 0; k < L; k++) {
      const i = order[k];
      const x = values[i];
      const r = ranks[i];
      let below = 0;
      let belowSum = 0;
      for (let j = r - 1; j > 0; j -= j & -j) {
        below += tree[2 * j];
        belowSum += tree[2 * j + 1];
      }
      // Σ|x − y| over the points before: those ranked below x are at most x, the others at least x.
      within[k + 1] = within[k] + (x * below - belowSum) + (seenSum - belowSum - x * (k - below));
      spread[k + 1] = spread[k] + spreads[i];
      for (let j = r; j <= L; j += j & -j) {
        tree[2 * j] += 1;
        tree[2 * j + 1] += x;
      }
      seenSum += x;
    }
    let tau = -1;
    let q = Number.NEGATIVE_INFINITY;
    for (let t = this.minSegment; t <= L - this.minSegment; t++) {
      const n = t;
      const m = L - t;
      const withinX = within[t];
      // The first t points' spreads count each pair among them twice and each pair across once.
      const between = spread[t] - 2 * withinX;
      const withinY = total - withinX - between;
      const energy = (2 * between) / (n * m) - (2 * withinX) / (n * (n - 1)) - (2 * withinY) / (m * (m - 1));
      const value = ((n * m) / (n + m)) * energy;
      if (profile) profile[t] = value;
      if (value > q) {
        q = value;
        tau = t;
      }
    }
    return { tau, q };
  }
}
