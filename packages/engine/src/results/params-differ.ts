import type { components } from "@benchwright/contract";

type ParamsSide = components["schemas"]["ParamsSide"];

/** What telling a side's params needs of an execution. */
export interface ParamsRow {
  id: string;
  tool_id: string;
  workload_id: string;
  params: Record<string, unknown>;
}

/**
 * The sides whose params differ from another side's of the same tool and workload, each with
 * its params, in the order given; empty when they agree. As tool versions (tool-versions.ts), a
 * warning beside the figures: `seconds=0` against `seconds=0.5` is a comparison of two workloads,
 * not of two machines. Sides of different workloads are never set against each other.
 */
export function paramsDiffer(rows: readonly ParamsRow[]): ParamsSide[] {
  const workloadOf = (r: ParamsRow) => `${r.tool_id}/${r.workload_id}`;
  const seen = new Map<string, Set<string>>();
  for (const r of rows) seen.set(workloadOf(r), (seen.get(workloadOf(r)) ?? new Set()).add(canonical(r.params)));
  return rows.filter((r) => seen.get(workloadOf(r))!.size > 1).map((r) => ({ execution_id: r.id, tool: r.tool_id, workload: r.workload_id, params: r.params }));
}

/** The params as text that does not depend on the order of their names. */
function canonical(params: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(params ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
