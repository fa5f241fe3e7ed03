import type { PlanRunCell } from "../../model/plan-runs.js";
import type { ComparedRow } from "../../results/comparison.js";
import type { ExecutionCost } from "./target-standings.js";

type Cost = ExecutionCost & { seconds?: number };

/** The executions of a precision cell's rounds after its pilot (the cell's own execution is the pilot's). */
export function roundExecutionIds(cells: readonly PlanRunCell[]): string[] {
  return cells.flatMap((c) => (c.precision?.rounds ?? []).slice(1).map((r) => r.execution_id));
}

/**
 * A precision plan's cells as one execution each: the figures of every round put together under
 * the cell's own execution (each value keeps its machine, so the two-level summary sees every
 * machine and every run), its cost the rounds' summed, and the cell's precision `cost` the final
 * one, read now from its executions (a cloud's machines are charged until they are destroyed).
 */
export function mergeRounds<R extends ComparedRow>(
  cells: readonly PlanRunCell[],
  rows: ReadonlyMap<string, R>,
  costs?: ReadonlyMap<string, Cost>,
): { cells: PlanRunCell[]; rows: Map<string, R>; costs?: Map<string, Cost> } {
  const merged = new Map(rows);
  const mergedCosts = costs ? new Map(costs) : undefined;
  const out = cells.map((cell) => {
    const precision = cell.precision;
    if (!precision || !cell.execution_id) return cell;
    const ids = precision.rounds.map((r) => r.execution_id);
    const own = ids.map((id) => rows.get(id)).filter((r): r is R => r !== undefined);
    const pilot = rows.get(cell.execution_id);
    if (pilot && own.length > 1) {
      const vms = new Map(own.flatMap((r) => r.exec_env.vms.map((v) => [v.id, v] as const)));
      merged.set(cell.execution_id, { ...pilot, metrics: own.flatMap((r) => r.metrics), exec_env: { ...pilot.exec_env, vms: [...vms.values()] } });
    }
    const spent = ids.map((id) => costs?.get(id)).filter((c): c is Cost => c !== undefined);
    if (!spent.length || new Set(spent.map((c) => c.currency)).size > 1) return cell;
    const amount = spent.reduce((a, c) => a + c.amount, 0);
    const seconds = spent.reduce((a, c) => a + (c.seconds ?? 0), 0);
    mergedCosts?.set(cell.execution_id, { ...spent[0], amount, seconds });
    if (precision.unit === "wall_seconds") return cell;
    const cost = precision.unit === "money" ? amount : seconds / 3600;
    return { ...cell, precision: { ...precision, cost, ...(precision.unit === "money" ? { currency: spent[0].currency } : {}) } };
  });
  return { cells: out, rows: merged, costs: mergedCosts };
}
