import type { PlanReport } from "@benchwright/contract";
import type { PlanRunCell } from "../../model/plan-runs.js";
import { geometricMean } from "./geometric-mean.js";
import { performanceRatio, type ReportCell } from "./report-cell.js";

type TargetStanding = PlanReport["targets"][number];

/** What an execution cost, as the cost helper gives it. */
export interface ExecutionCost {
  amount: number;
  currency: string;
}

/**
 * Each target's geometric mean of its performance ratios over the cells (see geometricMean), best
 * first; equal means share a rank, targets without one come last unranked, in the plan's order.
 * With `costs`, each target also gets the sum of its executions' costs and its geometric mean per
 * unit of that cost.
 */
export function targetStandings(
  labels: readonly string[],
  cells: readonly ReportCell[],
  runCells: readonly PlanRunCell[],
  confidence: number,
  costs?: ReadonlyMap<string, ExecutionCost>,
): TargetStanding[] {
  const standings = labels.map((target): TargetStanding => {
    const ratios = cells.map((c) => performanceRatio(c, target)).filter((r): r is number => r !== null);
    const mean = geometricMean(ratios, confidence);
    const own = runCells.filter((c) => c.target === target);
    const standing: TargetStanding = {
      target,
      rank: null,
      cells: mean.n,
      // Apart: a cancelled cell says nothing about the target (the user stopped the run), a failed one does.
      failed: own.filter((c) => c.state === "failed").length,
      cancelled: own.filter((c) => c.state === "cancelled").length,
      geomean: mean.value,
      geomean_ci_low: mean.ci_low,
      geomean_ci_high: mean.ci_high,
    };
    if (!costs) return standing;
    const cost = costOf(own, costs);
    return { ...standing, cost, performance_per_cost: cost && mean.value !== null && cost.amount > 0 ? mean.value / cost.amount : null };
  });
  for (const s of standings) {
    if (s.geomean !== null) s.rank = 1 + standings.filter((o) => o.geomean !== null && o.geomean > s.geomean!).length;
  }
  // A stable sort: unranked targets keep the plan's order, after the ranked ones.
  return standings.sort((a, b) => (a.rank ?? Number.POSITIVE_INFINITY) - (b.rank ?? Number.POSITIVE_INFINITY));
}

/** The sum of the costs of a target's executions; null when none is known or they are in several currencies. */
function costOf(own: readonly PlanRunCell[], costs: ReadonlyMap<string, ExecutionCost>): ExecutionCost | null {
  const known = own.flatMap((c) => (c.execution_id && costs.has(c.execution_id) ? [costs.get(c.execution_id)!] : []));
  if (known.length === 0 || new Set(known.map((c) => c.currency)).size > 1) return null;
  return { amount: known.reduce((sum, c) => sum + c.amount, 0), currency: known[0].currency };
}
