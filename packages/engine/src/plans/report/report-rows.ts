import type { PlanReport, PlanReportRow } from "@benchwright/contract";

/** The columns of the report's CSV, in the order of the contract's `PlanReportRow` (its test checks that). */
export const REPORT_COLUMNS: ReadonlyArray<keyof PlanReportRow> = [
  "target",
  "benchmark",
  "cell",
  "tool",
  "workload",
  "parameters",
  "metric",
  "unit",
  "tags",
  "n",
  "mean",
  "ci_low",
  "ci_high",
  "ratio",
  "ratio_ci_low",
  "ratio_ci_high",
  "p_value",
  "verdict",
  "rank",
  "state",
  "error",
  "machines",
  "between_cv",
  "within_cv",
  "claim",
  "claim_p_adjusted",
  "between_cv_ci_low",
  "between_cv_ci_high",
  "within_cv_ci_low",
  "within_cv_ci_high",
  "precision_reached",
  "precision_cost",
  "precision_stop",
];

/**
 * The report as lines: for each benchmark cell, each target in the plan's order, one line per
 * metric it measured there; a target's cell without a figure (failed, cancelled, not run) is
 * one line without a metric, with its state and error.
 */
export function reportRows(report: PlanReport): PlanReportRow[] {
  return report.cells.flatMap((cell) =>
    cell.states.flatMap((state) => {
      const place = { target: state.target, benchmark: cell.benchmark, cell: cell.cell, tool: cell.tool, workload: cell.workload, parameters: cell.params };
      const end = { state: state.state, error: state.error };
      const precision = {
        precision_reached: state.precision?.reached ?? null,
        precision_cost: state.precision?.cost ?? null,
        precision_stop: state.precision?.stop ?? null,
      };
      const lines = cell.metrics.flatMap((metric): PlanReportRow[] => {
        const f = metric.figures.find((x) => x.target === state.target);
        if (!f) return [];
        const { name, unit, tags } = metric;
        const { n, mean, ci_low, ci_high, ratio, ratio_ci_low, ratio_ci_high, p_value, verdict, rank } = f;
        const spread = {
          machines: f.variability?.machines ?? null,
          between_cv: f.variability?.between_cv ?? null,
          within_cv: f.variability?.within_cv ?? null,
          claim: f.claim?.verdict ?? null,
          claim_p_adjusted: f.claim?.p_adjusted ?? null,
          between_cv_ci_low: f.variability?.between_cv_ci_low ?? null,
          between_cv_ci_high: f.variability?.between_cv_ci_high ?? null,
          within_cv_ci_low: f.variability?.within_cv_ci_low ?? null,
          within_cv_ci_high: f.variability?.within_cv_ci_high ?? null,
          ...precision,
        };
        return [
          { ...place, metric: name, unit, tags, n, mean, ci_low, ci_high, ratio, ratio_ci_low, ratio_ci_high, p_value, verdict, rank, ...end, ...spread },
        ];
      });
      if (lines.length) return lines;
      const none = { metric: null, unit: null, tags: {}, n: null, mean: null, ci_low: null, ci_high: null };
      const noSpread = {
        machines: null,
        between_cv: null,
        within_cv: null,
        claim: null,
        claim_p_adjusted: null,
        between_cv_ci_low: null,
        between_cv_ci_high: null,
        within_cv_ci_low: null,
        within_cv_ci_high: null,
        ...precision,
      };
      return [{ ...place, ...none, ratio: null, ratio_ci_low: null, ratio_ci_high: null, p_value: null, verdict: null, rank: null, ...end, ...noSpread }];
    }),
  );
}
