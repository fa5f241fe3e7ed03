import type { PlanReport } from "@benchwright/contract";
import type { PlanRunCell, PlanRunCellRow } from "../model/plan-runs.js";

/** A failed or cancelled cell as a run's report lists it. */
type FailedCell = PlanReport["failures"][number];

/** A cell as the run's view and its report show it: its execution's id once the execution may exist. */
export function cellView(c: PlanRunCellRow): PlanRunCell {
  const made = !(c.state === "pending" || (c.state === "cancelled" && c.attempts === 0));
  return {
    target: c.target,
    benchmark: c.benchmark,
    cell: c.cell,
    tool: c.tool,
    workload: c.workload,
    params: c.params,
    state: c.state,
    execution_id: made ? c.execution_id : null,
    attempts: c.attempts,
    error: c.error,
    ...(c.precision ? { precision: c.precision } : {}),
  };
}

/** A failed or cancelled cell of the run's view as its report lists it: the same, without its attempts. */
export function failedCellView(c: PlanRunCell): FailedCell {
  const { target, benchmark, cell, tool, workload, params, execution_id, error } = c;
  return { target, benchmark, cell, tool, workload, params, state: c.state as FailedCell["state"], execution_id, error };
}
