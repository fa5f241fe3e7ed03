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
