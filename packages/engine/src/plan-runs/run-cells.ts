import { randomUUID } from "node:crypto";
import type { PlanRunCellRow } from "../model/plan-runs.js";
import type { PlanBody } from "../model/plans.js";
import { expandCells, type PlanParams } from "../model/param-matrix.js";

/**
 * A run's cells, in the order they are started: target by target, each benchmark's matrix in
 * its order. Each is given its execution's id now, before it is made.
 */
export function runCells(runId: string, plan: PlanBody): PlanRunCellRow[] {
  const cells: PlanRunCellRow[] = [];
  for (const target of plan.targets) {
    plan.benchmarks.forEach((b, benchmark) => {
      expandCells(b.params as PlanParams, b.zip).forEach((params, cell) => {
        cells.push({
          run_id: runId,
          seq: cells.length,
          target: target.label,
          benchmark,
          cell,
          tool: b.tool,
          workload: b.workload,
          params,
          state: "pending",
          execution_id: randomUUID(),
          attempts: 0,
          error: null,
        });
      });
    });
  }
  return cells;
}
