/**
 * Verdicts with a margin: what a comparison may claim of a ratio to the baseline, read off the
 * ratio's two-sided confidence interval and a relative margin δ (0.02: differences within 2% do
 * not matter). With d the relative difference turned so that above 0 is better:
 *
 * - `better` / `worse`: the interval lies wholly beyond the margin (d > δ, d < −δ);
 * - `equivalent`: wholly within it (−δ < d < δ): two one-sided tests (TOST, Schuirmann 1987) at
 *   half the level each, which the two-sided interval reads at once;
 * - `not_worse` / `not_better`: only one side is established (d > −δ, d < δ);
 * - `inconclusive` otherwise, with how many units (machines, or runs on one machine) would likely
 *   settle it.
 *
 * Each claim has a p-value: the smallest level at which the interval still lies in the claim's
 * region. Across a report the claims' p-values are adjusted (multiplicity.ts) and a claim is made
 * only when its adjusted p-value is below 1 − confidence (see `decideClaims`).
 */
import { adjust, type Adjustment } from "./multiplicity.js";
import type { MeanEstimate } from "./nested-summary.js";
import { studentTCdf, studentTQuantile } from "./statistics.js";

type ClaimVerdict = "better" | "worse" | "equivalent" | "not_worse" | "not_better" | "inconclusive";

/** A ratio to the baseline with the standard error of its estimate and that error's degrees of freedom. */
export interface RatioEstimate {
  ratio: number;
  se: number;
  df: number;
  /** How many independent units each side's interval rests on (machines, or runs on one machine), for `settle_n`. */
  units: number;
}

export interface Claim {
  verdict: ClaimVerdict;
  margin: number;
  /** The claim's own p-value; for `inconclusive`, the weakest claim's that came nearest. */
  p_value: number;
  /** After adjustment across the family; what the claim was decided on. */
  p_adjusted: number;
  /** For `inconclusive`: the units per side (machines, or runs) that would settle it with 80% likelihood if the ratio is what it seems; null when none would (the estimate sits on the margin). */
  settle_n: number | null;
}

type Direction = "higher" | "lower" | undefined;

/**
 * other / baseline with its standard error by the delta method, Var(o/b) ≈ r² (se_o²/o² +
 * se_b²/b²), and Welch–Satterthwaite degrees of freedom; null when the baseline's mean is 0 or a
 * side has no spread to tell (a single value).
 */
export function ratioEstimate(baseline: MeanEstimate, other: MeanEstimate): RatioEstimate | null {
  if (baseline.mean === 0 || baseline.df < 1 || other.df < 1) return null;
  const ratio = other.mean / baseline.mean;
  const vb = baseline.se ** 2;
  const vo = other.se ** 2;
  const se = Math.abs(ratio) * Math.sqrt((other.mean === 0 ? 0 : vo / other.mean ** 2) + vb / baseline.mean ** 2);
  const df = vb + vo === 0 ? baseline.df + other.df : (vb + vo) ** 2 / (vb ** 2 / baseline.df + vo ** 2 / other.df);
  return { ratio, se, df, units: Math.min(baseline.units, other.units) };
}

/** The signed distance of the estimate inside each claim's region, in the units of d. */
function distances(d: number, margin: number) {
  return {
    better: d - margin,
    worse: -d - margin,
    equivalent: margin - Math.abs(d),
    not_worse: d + margin,
    not_better: margin - d,
  };
}

/** The relative difference turned so that above 0 is better (a metric without a direction reads higher as better). */
function goodness(ratio: number, better: Direction): number {
  return better === "lower" ? 1 - ratio : ratio - 1;
}

/** Two-sided p of a distance: the level whose interval just touches the region's edge. */
function pOf(distance: number, e: RatioEstimate): number {
  if (e.se === 0) return distance > 0 ? 0 : 1;
  return Math.min(1, 2 * (1 - studentTCdf(distance / e.se, e.df)));
}

/**
 * The claims for a family of estimates (a report's cells, or a comparison's figures), adjusted
 * together. Weak claims (`not_worse`, `not_better`) are decided first on their adjusted
 * p-values; a figure with one is upgraded to a strong claim (`better`, `worse`, `equivalent`)
 * when that claim's adjusted p-value passes too. A strong claim's p-value is never below its weak
 * one's, so every strong claim also stands as a weak one, and the family's chance of any wrong
 * claim stays within 1 − confidence (checked by simulation in claims.test.ts).
 */
export function decideClaims(
  estimates: ReadonlyArray<{ estimate: RatioEstimate; better: Direction }>,
  margin: number,
  confidence = 0.95,
  adjustment: Adjustment = "holm",
): Claim[] {
  const alpha = 1 - confidence;
  const all = estimates.map(({ estimate, better }) => {
    const dist = distances(goodness(estimate.ratio, better), margin);
    const p = Object.fromEntries(Object.entries(dist).map(([k, v]) => [k, pOf(v, estimate)])) as Record<keyof typeof dist, number>;
    const weak = p.not_worse <= p.not_better ? ("not_worse" as const) : ("not_better" as const);
    const strongs = (["better", "worse", "equivalent"] as const).map((k) => [k, p[k]] as const).sort((a, b) => a[1] - b[1]);
    return { estimate, dist, weak, weakP: p[weak], strong: strongs[0][0], strongP: strongs[0][1] };
  });
  const weakAdjusted = adjust(
    all.map((a) => a.weakP),
    adjustment,
  );
  const strongAdjusted = adjust(
    all.map((a) => a.strongP),
    adjustment,
  );
  return all.map((a, i): Claim => {
    if (strongAdjusted[i] < alpha && weakAdjusted[i] < alpha)
      return { verdict: a.strong, margin, p_value: a.strongP, p_adjusted: strongAdjusted[i], settle_n: null };
    if (weakAdjusted[i] < alpha) return { verdict: a.weak, margin, p_value: a.weakP, p_adjusted: weakAdjusted[i], settle_n: null };
    return { verdict: "inconclusive", margin, p_value: a.weakP, p_adjusted: weakAdjusted[i], settle_n: settleN(a.estimate, a.dist[a.weak], alpha) };
  });
}

/**
 * The units per side at which the interval would lie in the nearest claim's region with 80%
 * likelihood, if the ratio is what it seems (the usual power calculation: the standard error
 * shrinks as 1/√n).
 */
function settleN(e: RatioEstimate, distance: number, alpha: number): number | null {
  if (!(distance > 0) || e.se === 0) return null;
  const z = powerZ(alpha);
  return Math.max(e.units + 1, Math.ceil(e.units * ((z * e.se) / distance) ** 2));
}

const powerZs = new Map<number, number>();
/** z(1 − α/2) + z(0.8), once per level: a report asks it for every inconclusive cell. */
function powerZ(alpha: number): number {
  let z = powerZs.get(alpha);
  if (z === undefined) {
    z = studentTQuantile(1 - alpha / 2, 1e6) + studentTQuantile(0.8, 1e6);
    powerZs.set(alpha, z);
  }
  return z;
}

/** The ratio's two-sided interval at `confidence`, from its estimate. */
function ratioInterval(e: RatioEstimate, confidence = 0.95): { low: number; high: number } {
  const half = e.se === 0 ? 0 : studentTQuantile(1 - (1 - confidence) / 2, e.df) * e.se;
  return { low: e.ratio - half, high: e.ratio + half };
}

/** What a sentence needs of a side: its label, and how it was measured. */
export interface ClaimSide {
  label: string;
  machines: number;
  /** Runs per machine (the mean where machines ran different numbers). */
  runs: number;
  between_cv: number | null;
}

/**
 * A sentence a manager can read: "c6a.large is 3.1% better than m6i.large on events_per_second
 * (higher is better; 95% CI 1.2% to 5.0%, 6 machines × 3 runs each; instances of m6i.large differ
 * by 4.2% between machines)."
 */
export function claimSentence(
  claim: Claim,
  e: RatioEstimate,
  {
    subject,
    baseline,
    metric,
    better,
    confidence = 0.95,
    design: given,
  }: {
    subject: ClaimSide;
    baseline: ClaimSide;
    metric: string;
    better: Direction;
    confidence?: number;
    /** How the sides were measured, where machines × runs is not it (a series' points). */
    design?: string;
  },
): string {
  const ci = ratioInterval(e, confidence);
  const [low, high] = [goodness(ci.low, better), goodness(ci.high, better)].sort((a, b) => a - b);
  const d = goodness(e.ratio, better);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const margin = pct(claim.margin);
  const direction = better ? `${better} is better` : "higher read as better";
  const design =
    given ??
    (subject.machines === 1 && baseline.machines === 1
      ? `${formatRuns(subject.runs)} on one machine each`
      : `${subject.machines} machine${subject.machines === 1 ? "" : "s"} × ${formatRuns(subject.runs)} each`);
  const variability = baseline.between_cv !== null ? `; instances of ${baseline.label} differ by ${pct(baseline.between_cv)} between machines` : "";
  const detail = `(${direction}; ${Math.round(confidence * 100)}% CI ${pct(low)} to ${pct(high)}, ${design}${variability})`;
  const { label: s } = subject;
  const { label: b } = baseline;
  switch (claim.verdict) {
    case "better":
    case "worse":
      return `${s} is ${pct(Math.abs(d))} ${claim.verdict} than ${b} on ${metric} ${detail}.`;
    case "equivalent":
      return `${s} is equivalent to ${b} on ${metric}, within ±${margin} ${detail}.`;
    case "not_worse":
      return `${s} is not worse than ${b} on ${metric} by more than ${margin} ${detail}.`;
    case "not_better":
      return `${s} is not better than ${b} on ${metric} by more than ${margin} ${detail}.`;
    default: {
      const units = given ? "points" : subject.machines > 1 ? "machines" : "runs";
      const settle = claim.settle_n === null ? "" : ` About ${claim.settle_n} ${units} each would likely settle it.`;
      return `Whether ${s} differs from ${b} on ${metric} by more than ${margin} cannot be told yet: ${d >= 0 ? "+" : ""}${pct(d)} ${detail}.${settle}`;
    }
  }
}

function formatRuns(runs: number): string {
  const r = Number.isInteger(runs) ? String(runs) : runs.toFixed(1);
  return `${r} run${runs === 1 ? "" : "s"}`;
}
