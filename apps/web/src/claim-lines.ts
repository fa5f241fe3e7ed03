import type { Claim, Comparison, PlanReport } from "@benchwright/sdk";

export interface ClaimLine {
  verdict: string;
  /** The verdict as a person reads it: `not worse`. */
  verdictText: string;
  sentence: string;
  pAdjusted: string;
}

/** A comparison's claims (present when it was asked with a margin), one line each, in the order of its metrics and executions. */
export function claimLines(c: Comparison): ClaimLine[] {
  return c.metrics.flatMap((m) => m.figures.flatMap((f) => lineOf(f.claim)));
}

/** A plan run's report's claims (present when its plan has a margin), cell by cell. */
export function reportClaimLines(r: PlanReport): ClaimLine[] {
  return r.cells.flatMap((c) => c.metrics.flatMap((m) => m.figures.flatMap((f) => lineOf(f.claim))));
}

function lineOf(claim: Claim | undefined): ClaimLine[] {
  return claim
    ? [{ verdict: claim.verdict, verdictText: claim.verdict.replace("_", " "), sentence: claim.sentence, pAdjusted: claim.p_adjusted.toPrecision(2) }]
    : [];
}
