import type { Plan, PlanReport } from "@benchwright/contract";
import type { PlanRunCell } from "../../model/plan-runs.js";
import { failedCellView } from "../../plan-runs/cell-view.js";
import type { ComparedRow } from "../../results/comparison.js";
import { type ClaimInput, claimsOf, MULTIPLICITY } from "../../results/figure-claims.js";
import { reportCell, type CellGroup } from "./report-cell.js";
import { targetStandings, type ExecutionCost } from "./target-standings.js";

type ReportFigure = PlanReport["cells"][number]["metrics"][number]["figures"][number];

export interface PlanReportOptions {
  runId: string;
  /** The confidence of every interval and verdict (0.95 by default, as comparisons'). */
  confidence?: number;
  /** What each execution cost, by execution id: fills each target's `cost` and `performance_per_cost`. */
  costs?: ReadonlyMap<string, ExecutionCost>;
}

/**
 * The report of a plan's run, from its cells and what each cell's execution measured: every
 * benchmark cell compared across the targets (report-cell.ts), the targets ranked by the
 * geometric mean of their ratios to the baseline (target-standings.ts), and the failed cells.
 * Pure: the same run gives the same report.
 */
export function buildPlanReport(
  plan: Plan,
  cells: readonly PlanRunCell[],
  executions: ReadonlyMap<string, ComparedRow>,
  { runId, confidence = 0.95, costs }: PlanReportOptions,
): PlanReport {
  const minDifference = plan.min_difference ?? 0;
  const inputs = new Map<ReportFigure, ClaimInput>();
  const warmup = plan.warmup === undefined ? undefined : plan.warmup === "auto" ? "auto" : Number(plan.warmup);
  const reported = cellGroups(plan, cells).map((group) => reportCell(group, plan.baseline, executions, confidence, minDifference, inputs, warmup));
  const margin = plan.margin ?? (minDifference || undefined);
  if (margin !== undefined) {
    // One family for the whole report: a claim in any cell is as trustworthy as in a report of one cell.
    const figures = [...inputs.keys()];
    const claims = claimsOf([...inputs.values()], margin, confidence);
    figures.forEach((f, i) => {
      if (claims[i]) f.claim = claims[i];
    });
  }
  return {
    plan_id: plan.id,
    run_id: runId,
    baseline: plan.baseline,
    confidence,
    min_difference: minDifference,
    ...(margin !== undefined ? { margin, multiplicity: MULTIPLICITY } : {}),
    targets: targetStandings(targetLabels(plan, cells), reported, cells, confidence, costs),
    cells: reported,
    failures: cells
      .filter((c) => c.state === "failed" || c.state === "cancelled")
      .sort(byPlace(targetLabels(plan, cells)))
      .map(failedCellView),
  };
}

/** The plan's target labels in its order, then any label only the cells name. */
function targetLabels(plan: Plan, cells: readonly PlanRunCell[]): string[] {
  return [...new Set([...plan.targets.map((t) => t.label), ...cells.map((c) => c.target)])];
}

/** The run's cells grouped by benchmark cell, in the plan's order; each group's in the order of targets. */
function cellGroups(plan: Plan, cells: readonly PlanRunCell[]): CellGroup[] {
  const groups = new Map<string, CellGroup>();
  for (const c of [...cells].sort(byPlace(targetLabels(plan, cells)))) {
    const key = `${c.benchmark}:${c.cell}`;
    const group = groups.get(key) ?? { benchmark: c.benchmark, cell: c.cell, runCells: [] };
    group.runCells.push(c);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Benchmark, then cell, then target in the plan's order. */
function byPlace(labels: readonly string[]) {
  return (a: PlanRunCell, b: PlanRunCell) => a.benchmark - b.benchmark || a.cell - b.cell || labels.indexOf(a.target) - labels.indexOf(b.target);
}
