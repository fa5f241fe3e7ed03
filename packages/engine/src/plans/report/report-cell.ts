import type { PlanReport } from "@benchwright/contract";
import type { PlanRunCell } from "../../model/plan-runs.js";
import { type ComparedRow, compareWithClaimInputs, type Warmup } from "../../results/comparison.js";
import type { ClaimInput } from "../../results/figure-claims.js";
import { ranksOf } from "./figure-ranks.js";

export type ReportCell = PlanReport["cells"][number];
type ReportMetric = ReportCell["metrics"][number];
type ReportFigure = ReportMetric["figures"][number];

/** One benchmark cell of a run: each target's run cell of it, in the plan's order of targets. */
export interface CellGroup {
  benchmark: number;
  cell: number;
  runCells: PlanRunCell[];
}

/**
 * A benchmark cell across the targets, compared by `compareExecutions` with the baseline
 * target's execution: the targets whose cell completed with figures take part. The baseline's
 * execution goes first, so the first metric is the first the baseline measured: the cell's main
 * metric, as repeated runs pick theirs (results/repetitions.ts). When the baseline's cell gave
 * no figure, the others are still summarised and ranked, but have no ratio and their verdict is
 * `unknown`: there is nothing to divide by.
 */
export function reportCell(
  group: CellGroup,
  baseline: string,
  executions: ReadonlyMap<string, ComparedRow>,
  confidence: number,
  minDifference = 0,
  claimInputs?: Map<ReportFigure, ClaimInput>,
  warmup?: Warmup,
): ReportCell {
  const [first] = group.runCells;
  const measured = group.runCells.filter((c) => c.state === "completed" && c.execution_id && executions.get(c.execution_id)?.metrics.length);
  const base = measured.find((c) => c.target === baseline);
  const ordered = base ? [base, ...measured.filter((c) => c !== base)] : measured;
  const rows = ordered.map((c) => executions.get(c.execution_id!)!);
  const targetOf = new Map(ordered.map((c) => [c.execution_id!, c.target]));
  // Claims name the targets; they are decided across the whole report (plan-report.ts), so only their inputs are kept here.
  const { comparison, claimInputs: inputs } = rows.length
    ? compareWithClaimInputs(rows, rows[0].id, confidence, minDifference, targetOf, warmup)
    : { comparison: { metrics: [] }, claimInputs: new Map() };
  const compared = comparison.metrics;
  const metrics = compared.map((m): ReportMetric => {
    const ranks = ranksOf(
      m.figures.map((f) => f.mean),
      m.better,
    );
    return {
      name: m.name,
      unit: m.unit,
      ...(m.better ? { better: m.better } : {}),
      tags: m.tags ?? {},
      figures: m.figures.map((f, i) => {
        const figure: ReportFigure = {
          target: targetOf.get(f.execution_id)!,
          execution_id: f.execution_id,
          n: f.n,
          mean: f.mean,
          ci_low: f.ci_low,
          ci_high: f.ci_high,
          ...(base
            ? { ratio: f.ratio, ratio_ci_low: f.ratio_ci_low, ratio_ci_high: f.ratio_ci_high, p_value: f.p_value, verdict: f.verdict }
            : { ratio: null, ratio_ci_low: null, ratio_ci_high: null, p_value: null, verdict: "unknown" as const }),
          rank: ranks[i],
          ...(f.variability ? { variability: f.variability } : {}),
        };
        const input = base ? inputs.get(f) : undefined;
        if (input) claimInputs?.set(figure, input);
        return figure;
      }),
    };
  });
  return {
    benchmark: group.benchmark,
    cell: group.cell,
    tool: first.tool,
    workload: first.workload,
    params: first.params,
    main_metric: metrics[0]?.name ?? null,
    states: group.runCells.map((c) => ({
      target: c.target,
      state: c.state,
      execution_id: c.execution_id,
      attempts: c.attempts,
      error: c.error,
      ...(c.precision ? { precision: c.precision } : {}),
    })),
    metrics,
  };
}

/**
 * A target's ratio to the baseline in a cell, on the cell's main metric, turned so that above 1
 * is better (inverted for a metric where lower is better); null when the cell gives none, or its
 * metric does not say which is better.
 */
export function performanceRatio(cell: ReportCell, target: string): number | null {
  const main = cell.metrics[0];
  const ratio = main?.figures.find((f) => f.target === target)?.ratio ?? null;
  if (!main?.better || ratio === null || cell.main_metric === null) return null;
  return main.better === "lower" ? 1 / ratio : ratio;
}
