import type { Comparison, PlanReport } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { claimLines, reportClaimLines } from "./claim-lines.js";

describe("claimLines", () => {
  it("gives one line per claim, each verdict in words with its sentence and adjusted p-value", () => {
    const verdicts = ["better", "worse", "equivalent", "not_worse", "not_better", "inconclusive"] as const;
    const c = {
      margin: 0.02,
      metrics: [
        {
          name: "eps",
          figures: [
            { execution_id: "a" },
            ...verdicts.map((verdict, i) => ({
              execution_id: `x${i}`,
              claim: { verdict, margin: 0.02, p_value: 0.001, p_adjusted: 0.00612, settle_n: null, sentence: `B${i} is ${verdict} than A.` },
            })),
          ],
        },
      ],
    } as unknown as Comparison;
    const lines = claimLines(c);
    expect(lines.map((l) => l.verdictText)).toEqual(["better", "worse", "equivalent", "not worse", "not better", "inconclusive"]);
    expect(lines[3]).toEqual({ verdict: "not_worse", verdictText: "not worse", sentence: "B3 is not_worse than A.", pAdjusted: "0.0061" });
  });
});

describe("reportClaimLines", () => {
  it("gives a report's claims cell by cell, and none without a margin", () => {
    const claim = {
      verdict: "equivalent",
      margin: 0.02,
      p_value: 0.001,
      p_adjusted: 0.002,
      settle_n: null,
      sentence: "b is equivalent to a on eps, within ±2.0%.",
    };
    const report = { cells: [{ metrics: [{ figures: [{ target: "a" }, { target: "b", claim }] }] }] } as unknown as PlanReport;
    expect(reportClaimLines(report)).toEqual([{ verdict: "equivalent", verdictText: "equivalent", sentence: claim.sentence, pAdjusted: "0.0020" }]);
    expect(reportClaimLines({ cells: [{ metrics: [{ figures: [{ target: "a" }] }] }] } as unknown as PlanReport)).toEqual([]);
  });
});
