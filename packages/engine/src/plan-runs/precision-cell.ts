import { randomUUID } from "node:crypto";
import type { ExecutionCost, PlanBudget, PlanPrecision } from "@benchwright/contract";
import type { CellPrecision, PlanRunCellRow } from "../model/plan-runs.js";
import type { StepRow } from "../model/steps.js";
import { metricKey } from "../results/comparison.js";
import { type CellCollaborators, type CellPlan, driveCell, type RecordCell } from "./cell-steps.js";
import { budgetOf, decideRound, pilotOf, reachedOf, type RoundsSoFar } from "./precision-rounds.js";
import type { RunLease } from "./run-lease.js";

/** What a precision cell reads besides its steps: its executions' costs, and how many machines its target has. */
export interface PrecisionCollaborators extends CellCollaborators {
  costsOf?: (executionIds: string[]) => Promise<ReadonlyMap<string, ExecutionCost>>;
  /** The machines the session can give in all; null: as many as asked (a cloud). */
  machineLimit?: (sessionId: string) => Promise<number | null>;
}

export interface PrecisionPlan extends CellPlan {
  precision: PlanPrecision;
  budget?: PlanBudget;
}

/**
 * Drives a cell of a precision plan: its pilot on the cell's own execution, then rounds, each an
 * execution of the same session on the machines and runs `decideRound` asks for, until it stops.
 * Every round is recorded in the cell before its execution is made (with its id), so that a
 * driver taking over goes on from the last one. The cell completes with the reason it stopped.
 */
export async function drivePrecisionCell(
  c: PrecisionCollaborators,
  lease: RunLease,
  plan: PrecisionPlan,
  start: PlanRunCellRow,
  record: RecordCell,
): Promise<void> {
  let cell: PlanRunCellRow | null = start;
  let state = start.precision ?? pilotOf(plan.precision, plan.budget, start.execution_id);
  if (!start.precision) cell = await record(start, { precision: state });
  const startedAt = Date.now();
  for (;;) {
    if (!cell || lease.signal.aborted) return;
    const round = state.rounds.at(-1)!;
    let completed = false;
    // A round's end is the cell's only when it failed or was cancelled: a completed round is weighed first.
    const roundRecord: RecordCell = async (row, change) => {
      if (change.state === "completed") {
        completed = true;
        return row;
      }
      const after = await record(
        row,
        change.state === "failed" || change.state === "cancelled" ? { ...change, precision: stopped(state, "failed", change.error ?? null) } : change,
      );
      return after && { ...after, execution_id: round.execution_id };
    };
    const repetitions = { count: round.runs, machines: round.machines, ...(round.first_machine ? { first_machine: round.first_machine } : {}) };
    await driveCell(c, lease, { ...plan, repetitions }, { ...cell, execution_id: round.execution_id }, roundRecord);
    if (!completed) return;
    const so = await roundsSoFar(c, plan, state, startedAt);
    const decision = decideRound(plan.precision, plan.budget, state, so);
    state = { ...state, reached: reachedOf(so.groups), ...counted(so), cost: so.spent };
    if ("stop" in decision) {
      await record(cell, { state: "completed", precision: { ...state, stop: decision.stop, reason: decision.reason } });
      return;
    }
    state = { ...state, rounds: [...state.rounds, { execution_id: randomUUID(), ...decision.round }] };
    cell = await record(cell, { precision: state });
  }
}

function stopped(state: CellPrecision, stop: CellPrecision["stop"], reason: string | null): CellPrecision {
  return { ...state, stop, reason };
}

function counted(so: RoundsSoFar): Pick<CellPrecision, "machines" | "runs"> {
  const groups = so.groups.filter((g) => g.length > 0);
  return { machines: groups.length, runs: groups.reduce((a, g) => a + g.length, 0) };
}

/** What the rounds measured (the pilot's first metric, by machine), what each level costs and what was spent, in the budget's unit. */
async function roundsSoFar(c: PrecisionCollaborators, plan: PrecisionPlan, state: CellPrecision, startedAt: number): Promise<RoundsSoFar> {
  const ids = state.rounds.map((r) => r.execution_id);
  const executions = await Promise.all(ids.map((id) => c.store.executions.get(id)));
  const metrics = executions.flatMap((e) => e?.metrics ?? []);
  const main = metrics[0];
  const groups = new Map<string, number[]>();
  for (const m of metrics) {
    if (!main || metricKey(m) !== metricKey(main)) continue;
    const key = m.vm ?? "";
    groups.set(key, [...(groups.get(key) ?? []), m.value]);
  }
  const steps = (await c.store.steps.list(ids)).filter((s) => s.state === "succeeded");
  const { unit } = budgetOf(plan.budget);
  const costs = unit === "wall_seconds" ? null : ((await c.costsOf?.(ids)) ?? new Map<string, ExecutionCost>());
  const seconds = (kind: StepRow["step"], of: (r: CellPrecision["rounds"][number]) => boolean) =>
    steps.filter((s) => s.step === kind && state.rounds.some((r) => r.execution_id === s.execution_id && of(r))).reduce((a, s) => a + (s.duration ?? 0), 0);
  const runsMeasured = [...groups.values()].reduce((a, g) => a + g.length, 0);
  const machinesMade = state.rounds.filter((r) => r.added !== "runs").reduce((a, r) => a + r.machines, 0);
  const perRun = runsMeasured ? seconds("run", () => true) / runsMeasured : 0;
  const perMachine = machinesMade ? seconds("prepare", (r) => r.added !== "runs") / machinesMade : 0;
  let rate: number | null;
  let spent: number | null;
  if (unit === "wall_seconds") {
    rate = 1;
    spent = (Date.now() - startedAt) / 1000;
  } else {
    const all = [...costs!.values()];
    const charged = all.reduce((a, x) => a + x.seconds, 0);
    const stepSeconds = steps.reduce((a, s) => a + (s.duration ?? 0), 0);
    if (unit === "machine_hours") {
      rate = 1 / 3600;
      // A target without a price charges its steps' time.
      spent = (all.length ? charged : stepSeconds) / 3600;
    } else {
      const amount = all.reduce((a, x) => a + x.amount, 0);
      rate = charged > 0 ? amount / charged : null;
      spent = all.length ? amount : null;
    }
  }
  const limit = c.machineLimit ? await c.machineLimit(plan.sessionId) : null;
  return {
    groups: [...groups.values()],
    costs: rate === null ? null : { machine: perMachine * rate, run: perRun * rate },
    spent,
    machineLimit: limit,
  };
}
