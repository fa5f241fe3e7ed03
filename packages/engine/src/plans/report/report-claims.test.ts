import { describe, expect, it } from "vitest";
import { buildPlanReport } from "./plan-report.js";
import { reportRows } from "./report-rows.js";
import { RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

const { plan, cells, executions } = syntheticRun();

describe("a report with a margin", () => {
  const report = buildPlanReport({ ...plan, margin: 0.02 }, cells, executions, { runId: RUN_ID });
  const claimed = report.cells.flatMap((c) => c.metrics.flatMap((m) => m.figures.filter((f) => f.claim)));

  it("claims against the baseline in every cell, adjusted across the whole report, each with a sentence naming the targets", () => {
    expect(report).toMatchObject({ margin: 0.02, multiplicity: "holm" });
    expect(claimed.length).toBeGreaterThan(1);
    // Holm over the report: the smallest raw p-value is multiplied by the family's size.
    const smallest = claimed.reduce((a, f) => (f.claim!.p_value < a.claim!.p_value ? f : a));
    expect(smallest.claim!.p_adjusted).toBeCloseTo(Math.min(1, smallest.claim!.p_value * claimed.length), 10);
    const eps = report.cells[0].metrics.find((m) => m.name === "events_per_second")!.figures.find((f) => f.target === "fast")!;
    expect(eps.claim!.verdict).toBe("better");
    expect(eps.claim!.sentence).toMatch(/^fast is 100\.0% better than here on events_per_second \(higher is better; 95% CI .* runs on one machine each\)\.$/);
    // The baseline makes no claim of itself.
    expect(report.cells[0].metrics[0].figures.find((f) => f.target === "here")!.claim).toBeUndefined();
  });

  it("puts each figure's machines, variability and claim in its line", () => {
    const line = reportRows(report).find((r) => r.target === "fast" && r.metric === "events_per_second" && r.cell === 0)!;
    expect(line).toMatchObject({ machines: 1, between_cv: null, claim: "better" });
    expect(line.within_cv).toBeGreaterThan(0);
    expect(line.claim_p_adjusted).toBe(eps().claim!.p_adjusted);
  });

  it("makes no claim without a margin", () => {
    const plain = buildPlanReport(plan, cells, executions, { runId: RUN_ID });
    expect(plain.margin).toBeUndefined();
    expect(plain.cells.flatMap((c) => c.metrics.flatMap((m) => m.figures)).some((f) => f.claim)).toBe(false);
  });

  function eps() {
    return report.cells[0].metrics.find((m) => m.name === "events_per_second")!.figures.find((f) => f.target === "fast")!;
  }

  it("leaves out warm-up runs when the plan asks", () => {
    const warm = buildPlanReport({ ...plan, warmup: "1" }, cells, executions, { runId: RUN_ID });
    const figure = warm.cells[0].metrics[0].figures[0];
    expect(figure.variability!.warmup_discarded).toBe(1);
    expect(figure.n).toBe(report.cells[0].metrics[0].figures[0].n - 1);
  });
});
