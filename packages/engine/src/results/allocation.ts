/**
 * How many machines and runs per machine reach a precision at the least cost (Kalibera & Jones,
 * ISMM 2013, §4: the optimal repetition counts of a two-level experiment). The mean of n runs on
 * each of m machines has variance σ²_b/m + σ²_w/(m·n) and costs m·(c_m + n·c_r), c_m a machine's
 * own cost (provisioning, installing, warming up) and c_r a run's. For any budget the variance
 * is least at n* = √(c_m·σ²_w / (c_r·σ²_b)), whatever m; m is then the fewest machines whose
 * interval is narrow enough. That closed form takes the interval's quantile as fixed, but with
 * few machines Student's t (m − 1 degrees of freedom) is much wider than with many, which favours
 * more runs on fewer machines than n*: so the counts are found by trying every n up to `maxRuns`
 * (each with its fewest machines), n* kept for the budget-bound case and `nextStep`. Costs are in
 * one unit of the caller's choosing: money, machine-hours or wall time.
 */
import { studentTQuantile } from "./statistics.js";

export interface VarianceComponents {
  /** σ²_b and σ²_w, as nestedSummary estimates them from a pilot. */
  between: number;
  within: number;
  mean: number;
}

export interface LevelCosts {
  /** What one more machine costs, before its runs. */
  machine: number;
  /** What one run costs. */
  run: number;
}

export interface AllocationRequest {
  components: VarianceComponents;
  costs: LevelCosts;
  /** The interval's half-width asked for, relative to the mean (0.02 for ±2%). */
  relativeHalfWidth: number;
  confidence?: number;
  /** At most this much in all (the costs' unit); none by default. */
  budget?: number;
  /** The fewest machines: 2 by default, the least that measures the between-machine spread. */
  minMachines?: number;
  /** The most runs on one machine (100 by default): a type whose machines do not differ would otherwise run one forever. */
  maxRuns?: number;
}

export interface Allocation {
  machines: number;
  runs: number;
  cost: number;
  /** The relative half-width these counts are expected to reach. */
  expectedRelativeHalfWidth: number;
  /** `precision_reached`, or `budget_spent` when the budget buys less than the precision asked for. */
  stop: "precision_reached" | "budget_spent";
}

const tCache = new Map<string, number>();
function t(confidence: number, df: number): number {
  const key = `${confidence}:${df}`;
  let q = tCache.get(key);
  if (q === undefined) {
    q = studentTQuantile(1 - (1 - confidence) / 2, df);
    tCache.set(key, q);
  }
  return q;
}

/** The relative half-width of m machines × n runs each. */
export function expectedRelativeHalfWidth(c: VarianceComponents, m: number, n: number, confidence = 0.95): number {
  if (m < 2 || c.mean === 0) return Number.POSITIVE_INFINITY;
  return (t(confidence, m - 1) * Math.sqrt((c.between + c.within / n) / m)) / Math.abs(c.mean);
}

/** Kalibera & Jones's runs per machine, rounded to whichever neighbour costs less for the same precision. */
function optimalRuns(c: VarianceComponents, costs: LevelCosts, maxRuns: number): number[] {
  if (c.within <= 0) return [1];
  if (c.between <= 0 || costs.run <= 0) return [maxRuns];
  const exact = Math.sqrt((costs.machine * c.within) / (costs.run * c.between));
  const low = Math.min(maxRuns, Math.max(1, Math.floor(exact)));
  return [...new Set([low, Math.min(maxRuns, low + 1)])];
}

/** The fewest machines at n runs each that reach `h`; null when none up to `limit` do. */
function machinesFor(c: VarianceComponents, n: number, h: number, confidence: number, minMachines: number, limit = 2_000): number | null {
  if (c.mean === 0) return null;
  // The normal quantile's count is a lower bound of the t's: start the search there.
  const z = t(confidence, 1e6);
  const start = Math.max(minMachines, Math.floor((z ** 2 * (c.between + c.within / n)) / (h * c.mean) ** 2));
  for (let m = start; m <= limit; m++) if (expectedRelativeHalfWidth(c, m, n, confidence) <= h) return m;
  return null;
}

/**
 * The machines and runs per machine that reach the half-width asked for at the least cost, or,
 * when the budget does not stretch so far, the narrowest interval the budget buys.
 */
export function allocate(request: AllocationRequest): Allocation {
  const { components: c, costs, relativeHalfWidth: h, confidence = 0.95, budget, minMachines = 2, maxRuns = 100 } = request;
  const costOf = (m: number, n: number) => m * (costs.machine + n * costs.run);
  const candidates = Array.from({ length: maxRuns }, (_, i) => i + 1).flatMap((n) => {
    const m = machinesFor(c, n, h, confidence, minMachines);
    return m === null ? [] : [{ machines: m, runs: n, cost: costOf(m, n) }];
  });
  const best = candidates.sort((a, b) => a.cost - b.cost)[0];
  if (best && (budget === undefined || best.cost <= budget))
    return { ...best, expectedRelativeHalfWidth: expectedRelativeHalfWidth(c, best.machines, best.runs, confidence), stop: "precision_reached" };
  // Within the budget: the same runs per machine (the variance is least there for any budget), as many machines as it pays for.
  const within = optimalRuns(c, costs, maxRuns).map((n) => {
    const m = Math.max(minMachines, Math.floor((budget ?? 0) / (costs.machine + n * costs.run)));
    return { machines: m, runs: n, cost: costOf(m, n), expectedRelativeHalfWidth: expectedRelativeHalfWidth(c, m, n, confidence) };
  });
  const narrowest = within.sort((a, b) => a.expectedRelativeHalfWidth - b.expectedRelativeHalfWidth)[0];
  return { ...narrowest, stop: "budget_spent" };
}

/**
 * The next step of a sequential experiment from m machines × n runs: one more machine (with n
 * runs), or one more run on every machine, whichever shrinks the mean's variance the more per
 * unit of cost. It is how a run grows from its pilot towards `allocate`'s counts as the variance
 * components' estimates firm up.
 */
export function nextStep(c: VarianceComponents, costs: LevelCosts, m: number, n: number): "machine" | "run" {
  const variance = (mm: number, nn: number) => c.between / mm + c.within / (mm * nn);
  const now = variance(m, n);
  const perMachine = (now - variance(m + 1, n)) / (costs.machine + n * costs.run);
  const perRun = (now - variance(m, n + 1)) / (m * costs.run);
  return perMachine >= perRun ? "machine" : "run";
}
