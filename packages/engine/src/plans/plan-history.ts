import type { ExecutionCost, PlanExpectedCell } from "@benchwright/contract";
import type { PlanBody } from "../model/plans.js";
import { expandCells } from "../model/param-matrix.js";
import { allocate } from "../results/allocation.js";
import { metricKey } from "../results/comparison.js";
import { nestedSummary } from "../results/nested-summary.js";
import type { Store } from "../store/store.js";
import { budgetOf } from "../plan-runs/precision-rounds.js";

/** The series' points a dry run reads at most, newest first: the history's recent level. */
const HISTORY_POINTS = 50;

/** What a cell's history measured: values by machine (each past execution's machine one), and what a machine and a run cost. */
export interface CellHistory {
  metric: string;
  points: number;
  groups: number[][];
  /** In the budget's unit; null when the history cannot price it (money without a price). */
  costs: { machine: number; run: number } | null;
}

/**
 * A precision plan's expected counts and cost per target and cell, from the history of each
 * cell's series (Kalibera & Jones's allocation over the variance components the past points
 * show): each past execution's machine is taken as one machine of the type, its runs as its
 * runs. Where the cell has no history (or too little to tell two levels apart) it says so.
 */
export async function expectedFromHistory(
  plan: PlanBody,
  historyOf: (target: PlanBody["targets"][number], tool: string, workload: string, params: Record<string, unknown>) => Promise<CellHistory | null>,
): Promise<PlanExpectedCell[]> {
  if (!plan.precision) return [];
  const { unit, amount } = budgetOf(plan.budget);
  const out: PlanExpectedCell[] = [];
  for (const target of plan.targets) {
    for (const b of plan.benchmarks) {
      for (const params of expandCells(b.params, b.zip)) {
        const common = { target: target.label, tool: b.tool, workload: b.workload, params, unit };
        const h = await historyOf(target, b.tool, b.workload, params);
        const measured = h?.groups.filter((g) => g.length > 0) ?? [];
        const none = (note: string) =>
          out.push({
            ...common,
            metric: h?.metric ?? null,
            history_points: h?.points ?? 0,
            machines: null,
            runs: null,
            cost: null,
            expected_relative_half_width: null,
            note,
          });
        if (!h || h.points === 0) {
          none("no history: the series of this target and cell has no points yet; the pilot will tell");
          continue;
        }
        if (measured.length < 2 || !h.costs) {
          none(
            !h.costs
              ? `the history (${h.points} points) cannot price a machine and a run in ${unit}`
              : `the history (${h.points} points) measured one machine: too little to tell the spread between machines`,
          );
          continue;
        }
        const s = nestedSummary(measured);
        const a = allocate({
          components: { between: s.between_variance ?? 0, within: s.within_variance ?? 0, mean: s.mean },
          costs: h.costs,
          relativeHalfWidth: plan.precision.relative_half_width,
          ...(Number.isFinite(amount) ? { budget: amount } : {}),
        });
        out.push({
          ...common,
          metric: h.metric,
          history_points: h.points,
          machines: a.machines,
          runs: a.runs,
          cost: a.cost,
          expected_relative_half_width: a.expectedRelativeHalfWidth,
          note:
            a.stop === "budget_spent"
              ? `the budget buys ${a.machines} machines × ${a.runs} runs, expected ±${pct(a.expectedRelativeHalfWidth)}: short of the precision asked for`
              : `from ${h.points} past points on ${measured.length} machines: ${a.machines} machines × ${a.runs} runs are expected to reach ±${pct(a.expectedRelativeHalfWidth)}`,
        });
      }
    }
  }
  return out;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/**
 * Reads a cell's history from the store: the series of the target, tool, workload and params
 * with the most points (its metric the one the plan's precision follows, as a run's first
 * metric is), its recent points' executions' values grouped by machine, and from their steps what
 * a machine (its prepare) and a run cost, priced by `costsOf` when the budget is money.
 */
export async function readCellHistory(
  store: Store,
  plan: PlanBody,
  costsOf: ((ids: string[]) => Promise<ReadonlyMap<string, ExecutionCost>>) | undefined,
  target: PlanBody["targets"][number],
  tool: string,
  workload: string,
  params: Record<string, unknown>,
): Promise<CellHistory | null> {
  const all = await store.series.page({ tool, workload, provider: target.provider, service_type: target.service }, 1);
  const same = all.filter((s) => sameParams(s.params, params)).sort((x, y) => Number(y.points) - Number(x.points));
  const series = same[0];
  if (!series) return null;
  const points = (await store.series.points(series.id, Math.max(0, Number(series.points) - HISTORY_POINTS), HISTORY_POINTS)).filter((p) => p.execution_id);
  const ids = points.map((p) => p.execution_id!);
  const executions = await Promise.all(ids.map((id) => store.executions.get(id)));
  const groups = new Map<string, number[]>();
  for (const e of executions) {
    for (const m of e?.metrics ?? []) {
      if (m.name !== series.metric || metricKey(m) !== metricKey({ ...m, name: series.metric })) continue;
      const key = `${e!.id}/${m.vm ?? ""}`;
      groups.set(key, [...(groups.get(key) ?? []), m.value]);
    }
  }
  const steps = (await store.steps.list(ids)).filter((s) => s.state === "succeeded");
  const seconds = (kind: string) => steps.filter((s) => s.step === kind).reduce((a, s) => a + (s.duration ?? 0), 0);
  const runs = [...groups.values()].reduce((a, g) => a + g.length, 0);
  const perRun = runs ? seconds("run") / runs : 0;
  const perMachine = groups.size ? seconds("prepare") / groups.size : 0;
  const { unit } = budgetOf(plan.budget);
  let rate: number | null = unit === "wall_seconds" ? 1 : 1 / 3600;
  if (unit === "money") {
    const priced = [...((await costsOf?.(ids)) ?? new Map<string, ExecutionCost>()).values()];
    const charged = priced.reduce((a, x) => a + x.seconds, 0);
    rate = charged > 0 ? priced.reduce((a, x) => a + x.amount, 0) / charged : null;
  }
  return {
    metric: series.metric,
    points: points.length,
    groups: [...groups.values()],
    costs: rate === null || perRun === 0 ? null : { machine: perMachine * rate, run: perRun * rate },
  };
}

/** The series' params against a cell's: the same keys with the same values (as JSON). */
function sameParams(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const norm = (p: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(p)
        .sort()
        .map((k) => [k, p[k]]),
    );
  return norm(a) === norm(b);
}
