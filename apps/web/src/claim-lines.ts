import type { Comparison } from "@benchwright/sdk";

export interface ClaimLine {
  verdict: string;
  /** The verdict as a person reads it: `not worse`. */
  verdictText: string;
  sentence: string;
  pAdjusted: string;
}

/** A comparison's claims (present when it was asked with a margin), one line each, in the order of its metrics and executions. */
export function claimLines(c: Comparison): ClaimLine[] {
  return c.metrics.flatMap((m) =>
    m.figures.flatMap((f) =>
      f.claim
        ? [
            {
              verdict: f.claim.verdict,
              verdictText: f.claim.verdict.replace("_", " "),
              sentence: f.claim.sentence,
              pAdjusted: f.claim.p_adjusted.toPrecision(2),
            },
          ]
        : [],
    ),
  );
}
