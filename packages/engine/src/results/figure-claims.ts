import type { components } from "@benchwright/contract";
import { type ClaimSide, claimSentence, decideClaims, type RatioEstimate } from "./claims.js";
import type { NestedSummary } from "./nested-summary.js";
import { bootstrapMeanInterval, OUTLIER_RULE, outliers, SKEWED, skewness, warmupRuns } from "./robust.js";

type Claim = components["schemas"]["Claim"];
type FigureVariability = components["schemas"]["FigureVariability"];

/** What a figure's claim needs: its ratio's estimate (null without one), and what its sentence names. */
export interface ClaimInput {
  estimate: RatioEstimate | null;
  better: "higher" | "lower" | undefined;
  metric: string;
  subject: ClaimSide;
  baseline: ClaimSide;
  /** How the sides were measured, where machines × runs is not it (see claimSentence). */
  design?: string;
}

/** The only adjustment reports make (see multiplicity.ts for why Holm). */
export const MULTIPLICITY = "holm" as const;

/**
 * The claims of a family of figures (a comparison's, or a whole report's), decided together so
 * that their number does not make a wrong one likely; undefined for a figure without a ratio's
 * estimate (the baseline, a side with a single value).
 */
export function claimsOf(inputs: ReadonlyArray<ClaimInput | undefined>, margin: number, confidence: number): Array<Claim | undefined> {
  const family = inputs.flatMap((input, i) => (input?.estimate ? [{ i, input, estimate: input.estimate }] : []));
  const decided = decideClaims(
    family.map((f) => ({ estimate: f.estimate, better: f.input.better })),
    margin,
    confidence,
    MULTIPLICITY,
  );
  const out: Array<Claim | undefined> = inputs.map(() => undefined);
  family.forEach((f, k) => {
    const claim = decided[k];
    out[f.i] = { ...claim, sentence: claimSentence(claim, f.estimate, { ...f.input, confidence }) };
  });
  return out;
}

/** The fewest units (machines' means, or runs) from which a skewed sample's interval is bootstrapped rather than t. */
const BOOTSTRAP_FROM = 8;

/**
 * A nested summary as the contract shows it, with what the robust checks found in its groups:
 * warm-up and outliers flagged per machine, and the interval bootstrapped where its units are
 * skewed.
 */
export function variabilityOf(s: NestedSummary, groups: readonly (readonly number[])[], confidence: number): Omit<FigureVariability, "warmup_discarded"> {
  const units = groups.length > 1 ? groups.map((g) => g.reduce((a, b) => a + b, 0) / g.length) : (groups[0] ?? []);
  const skew = skewness(units);
  const bootstrap = units.length >= BOOTSTRAP_FROM && Math.abs(skew) > SKEWED ? bootstrapMeanInterval(units, confidence) : null;
  return {
    machines: s.machines,
    runs: s.runs,
    mean: s.mean,
    ci_low: bootstrap?.low ?? s.ci_low,
    ci_high: bootstrap?.high ?? s.ci_high,
    interval_from: s.interval_from,
    interval_method: bootstrap ? "bootstrap" : "t",
    warmup_runs: Math.max(0, ...groups.map(warmupRuns)),
    outliers: groups.reduce((a, g) => a + outliers(g).length, 0),
    outlier_rule: OUTLIER_RULE,
    skewness: skew,
    between_cv: s.between_cv,
    between_cv_ci_low: s.between_cv_ci_low,
    between_cv_ci_high: s.between_cv_ci_high,
    within_cv: s.within_cv,
    within_cv_ci_low: s.within_cv_ci_low,
    within_cv_ci_high: s.within_cv_ci_high,
  };
}

/** How a side was measured, for a sentence. */
export function sideOf(label: string, s: NestedSummary): ClaimSide {
  return { label, machines: s.machines, runs: s.runs / s.machines, between_cv: s.between_cv };
}
