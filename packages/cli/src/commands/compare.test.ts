import type { Comparison, MetricFigure } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { comparisonText } from "./compare.js";

const A = "2abd089d-0000-4000-8000-000000000001";
const B = "7c1e2f30-0000-4000-8000-000000000002";

function figureOf(id: string, f: Partial<MetricFigure>): MetricFigure {
  return {
    execution_id: id,
    n: 3,
    mean: 5.003333333333333,
    stddev: 0.001,
    min: 5.002,
    max: 5.0045,
    ci_low: 5.000849,
    ci_high: 5.005817,
    values: [5.002, 5.0035, 5.0045],
    ratio: 1,
    ratio_ci_low: null,
    ratio_ci_high: null,
    p_value: null,
    significant: false,
    verdict: "baseline",
    ...f,
  };
}

describe("compare's table", () => {
  it("prints rounded figures and the verdict in words", () => {
    const comparison = {
      baseline: A,
      confidence: 0.95,
      executions: [A, B].map((id) => ({
        id,
        tool: "idle",
        workload: "idle5",
        provider: "local",
        service_type: "default",
        state: "completed",
      })),
      metrics: [
        {
          name: "idle_seconds",
          unit: "s",
          tags: {},
          better: "lower",
          figures: [figureOf(A, {}), figureOf(B, { mean: 5.004666666666667, ratio: 1.000266489007328, p_value: 0.4, verdict: "no_difference" })],
        },
      ],
    } as unknown as Comparison;
    const text = comparisonText(comparison);
    expect(text).toMatch(/5\.00333 ± 0\.00248 \(n=3\)\s+5\.00467 ± 0\.00115 \(n=3\) x1\.000 no difference/);
    expect(text).not.toContain("no_difference");
  });

  it("warns of the sides whose tool versions differ, by letter, and says nothing when they agree", () => {
    const comparison = {
      baseline: A,
      confidence: 0.95,
      executions: [A, B].map((id) => ({ id, tool: "sysbench", workload: "cpu_10000", provider: "local", service_type: "default", state: "completed" })),
      metrics: [],
      tool_versions_differ: [
        { execution_id: A, tool: "sysbench", workload: "cpu_10000", version: "sysbench 1.0.20+ds-5" },
        { execution_id: B, tool: "sysbench", workload: "cpu_10000", version: "sysbench 1.0.19-test" },
      ],
    } as unknown as Comparison;
    const text = comparisonText(comparison);
    expect(text).toContain("! tool versions differ");
    expect(text).toContain("!   A = sysbench 1.0.20+ds-5\n!   B = sysbench 1.0.19-test\n");
    expect(comparisonText({ ...comparison, tool_versions_differ: [] })).not.toContain("tool versions differ");
  });

  it("shows each side's params and warns, as of tool versions, when the sides of a workload ran with different params", () => {
    const comparison = {
      baseline: A,
      confidence: 0.95,
      executions: [
        { id: A, tool: "idle", workload: "idle", provider: "local", service_type: "default", state: "completed", params: { seconds: 0 } },
        { id: B, tool: "idle", workload: "idle", provider: "local", service_type: "default", state: "completed", params: { seconds: 0.5 } },
      ],
      metrics: [],
      tool_versions_differ: [],
      params_differ: [
        { execution_id: A, tool: "idle", workload: "idle", params: { seconds: 0 } },
        { execution_id: B, tool: "idle", workload: "idle", params: { seconds: 0.5 } },
      ],
    } as unknown as Comparison;
    const text = comparisonText(comparison);
    expect(text).toContain(`A = ${A} (local/default, completed) baseline seconds=0\n`);
    expect(text).toContain(`B = ${B} (local/default, completed) seconds=0.5\n`);
    expect(text).toContain("! params differ");
    expect(text).toContain("!   A = seconds=0\n!   B = seconds=0.5\n");
    expect(comparisonText({ ...comparison, params_differ: [] })).not.toContain("params differ");
  });
});

describe("compare's claims", () => {
  it("prints each claim's sentence with its adjusted p-value, and the variability between and within machines", () => {
    const variability = {
      machines: 4,
      runs: 12,
      mean: 5,
      ci_low: 4.9,
      ci_high: 5.1,
      interval_from: "machines",
      between_cv: 0.042,
      between_cv_ci_low: 0.02,
      between_cv_ci_high: 0.12,
      within_cv: 0.005,
      within_cv_ci_low: 0.004,
      within_cv_ci_high: 0.008,
      interval_method: "bootstrap",
      warmup_runs: 2,
      warmup_discarded: 0,
      outliers: 1,
      outlier_rule: "modified_z_above_3.5",
      skewness: 1.4,
    } as const;
    const sentences = {
      better: "B is 3.1% better than A on eps.",
      worse: "B is 3.1% worse than A on eps.",
      equivalent: "B is equivalent to A on eps, within ±2.0%.",
      not_worse: "B is not worse than A on eps by more than 2.0%.",
      not_better: "B is not better than A on eps by more than 2.0%.",
      inconclusive: "Whether B differs from A on eps by more than 2.0% cannot be told yet. About 9 machines each would likely settle it.",
    };
    for (const [verdict, sentence] of Object.entries(sentences)) {
      const claim = {
        verdict,
        margin: 0.02,
        p_value: 0.001,
        p_adjusted: 0.004,
        settle_n: verdict === "inconclusive" ? 9 : null,
        sentence,
      } as MetricFigure["claim"];
      const comparison = {
        baseline: A,
        confidence: 0.95,
        margin: 0.02,
        multiplicity: "holm",
        executions: [A, B].map((id) => ({ id, tool: "sysbench", workload: "cpu", provider: "aws", service_type: "m6i.large", state: "completed" })),
        metrics: [
          {
            name: "eps",
            unit: "e/s",
            tags: {},
            better: "higher",
            figures: [figureOf(A, { variability }), figureOf(B, { ratio: 1.031, p_value: 0.001, verdict: "better", claim, variability })],
          },
        ],
      } as unknown as Comparison;
      const text = comparisonText(comparison);
      expect(text).toContain("claims with a margin of 2.0% (p-values adjusted by Holm across them all):");
      expect(text).toContain(`${verdict.replace("_", " ").toUpperCase()}: ${sentence} (adjusted p 0.0040)`);
      expect(text).toContain(
        "B eps: between machines 4.2% [2.0%, 12.0%]; within a machine 0.5% [0.4%, 0.8%] (4 machines, 12 runs); warm-up: 2 runs flagged; 1 outlier (modified_z_above_3.5); interval by bootstrap (skewness 1.4)",
      );
    }
  });
});
