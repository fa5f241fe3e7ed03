import type { PlanCellPrecision } from "@benchwright/contract";
/**
 * A run of a plan as the orchestration keeps it in the database and the report reads it. A
 * cell is one execution of the plan's matrix: one target × one benchmark × one combination of
 * that benchmark's param values.
 */

/** Where a cell is: waiting, its execution preparing or running, or ended. */
export type PlanCellState = "pending" | "preparing" | "running" | "completed" | "failed" | "cancelled";

/** Who asked for a run: a client (`api`) or the plan's schedule. */
export type PlanRunTrigger = "api" | "schedule";

/** Where a run is. `cancelling` lasts while its steps are stopped and its sessions deleted. */
export type PlanRunState = "pending" | "running" | "completed" | "failed" | "cancelling" | "cancelled";

export interface PlanRunCell {
  /** The target's label (a `*` target's expanded label, `<label>/<service type>`). */
  target: string;
  /** Index of the benchmark in the plan's `benchmarks`. */
  benchmark: number;
  /** Index of this combination among the benchmark's cells, in the order the matrix expands them. */
  cell: number;
  tool: string;
  workload: string;
  /** This cell's own value of each param the benchmark gives (one value each, never a list). */
  params: Record<string, unknown>;
  state: PlanCellState;
  /** The execution made for the cell, once made. */
  execution_id: string | null;
  /** Steps begun for the cell (prepare and run), retries included. */
  attempts: number;
  /** Why the cell failed or was cancelled, as a person reads it. */
  error: string | null;
  /** A precision plan's cell: its rounds and how it went (null or absent otherwise). */
  precision?: CellPrecision | null;
}

/** How a precision plan's cell went (the contract's PlanCellPrecision). */
export type CellPrecision = PlanCellPrecision;

/** A row of `plan_runs`. `sessions` are the ids given to the targets' sessions at the run's creation, made by its driver. */
export interface PlanRunRow {
  id: string;
  plan_id: string;
  seq: string;
  state: PlanRunState;
  created: Date;
  started: Date | null;
  ended: Date | null;
  sessions: Record<string, string>;
  /** Who asked for the run: a client's POST, or the plan's schedule. */
  trigger: PlanRunTrigger;
  /** The tick of the plan's schedule the run stands for (null for a client's run). */
  scheduled_for: Date | null;
  /** The principal its sessions belong to: the admin who started it, or for a scheduled run the plan's maker (else `bootstrap`). */
  started_by: string;
  /** The branch and commit of the code its cells measure, copied onto their points (a CI's gate says them); null when its client did not. */
  branch?: string | null;
  commit_id?: string | null;
  /** The process driving the run, and until when its lease holds (null: nobody). */
  owner: string | null;
  lease_until: Date | null;
}

/**
 * A row of `plan_run_cells`: the cell, its place in the run (`seq`), and the id its execution
 * is given when it is made (given at the run's creation, so that a driver taking over makes
 * it at most once).
 */
export interface PlanRunCellRow extends Omit<PlanRunCell, "execution_id"> {
  run_id: string;
  seq: number;
  execution_id: string;
}

/** A run as it is first recorded: a client's unless it says otherwise. */
export type NewPlanRun = Omit<PlanRunRow, "seq" | "owner" | "lease_until" | "trigger" | "scheduled_for" | "started_by"> &
  Partial<Pick<PlanRunRow, "trigger" | "scheduled_for" | "started_by">>;

/** What a driver records of a cell as it goes: its state, the steps begun, why it ended. */
export type CellChange = Partial<Pick<PlanRunCell, "state" | "attempts" | "error">> & { precision?: CellPrecision };
