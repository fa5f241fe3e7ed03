import { BOOTSTRAP_PRINCIPAL } from "../../model/principals.js";
import type { CellChange, NewPlanRun, PlanRunCellRow, PlanRunState } from "../../model/plan-runs.js";
import { json, type Sql } from "./sql.js";

const RUN_COLUMNS =
  "id, plan_id, seq::text AS seq, state, created, started, ended, sessions, trigger, scheduled_for, started_by, branch, commit_id, owner, lease_until";
const CELL_COLUMNS = "run_id, seq, target, benchmark, cell, tool, workload, params, state, execution_id, attempts, error, precision";
/** The states in which a run still wants a driver. */
const ACTIVE_RUN_STATES: readonly PlanRunState[] = ["pending", "running", "cancelling"];

export function insertPlanRun(run: NewPlanRun): Sql {
  return {
    text: `INSERT INTO plan_runs (id, plan_id, state, created, started, ended, sessions, trigger, scheduled_for, started_by, branch, commit_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    values: [
      run.id,
      run.plan_id,
      run.state,
      run.created,
      run.started,
      run.ended,
      json(run.sessions),
      run.trigger ?? "api",
      run.scheduled_for ?? null,
      run.started_by ?? BOOTSTRAP_PRINCIPAL,
      run.branch ?? null,
      run.commit_id ?? null,
    ],
  };
}

/** Every cell of a run in one statement. */
export function insertPlanRunCells(cells: readonly PlanRunCellRow[]): Sql {
  const values: unknown[] = [];
  const rows = cells.map((c) => {
    const at = (v: unknown) => `$${values.push(v)}`;
    return `(${[c.run_id, c.seq, c.target, c.benchmark, c.cell, c.tool, c.workload, json(c.params), c.state, c.execution_id, c.attempts, c.error, c.precision ? json(c.precision) : null].map(at).join(", ")})`;
  });
  return { text: `INSERT INTO plan_run_cells (${CELL_COLUMNS}) VALUES ${rows.join(", ")}`, values };
}

export function planRunById(planId: string, runId: string): Sql {
  return { text: `SELECT ${RUN_COLUMNS} FROM plan_runs WHERE plan_id = $1 AND id = $2`, values: [planId, runId] };
}

/** A plan's runs in creation order, after the `afterSeq` one, at most `limit` (all without). */
export function planRunsPage(planId: string, afterSeq: string | undefined, limit: number | undefined): Sql {
  return {
    text: `SELECT ${RUN_COLUMNS} FROM plan_runs WHERE plan_id = $1 AND ($2::bigint IS NULL OR seq > $2::bigint) ORDER BY plan_runs.seq LIMIT $3`,
    values: [planId, afterSeq ?? null, limit ?? null],
  };
}

/** The cells of these runs, in each run's order. */
export function cellsOfRuns(runIds: string[]): Sql {
  return { text: `SELECT ${CELL_COLUMNS} FROM plan_run_cells WHERE run_id = ANY($1) ORDER BY run_id, seq`, values: [runIds] };
}

/** How many of a run's cells are in each state (what its progress counts), without reading the cells. */
export function cellStateCounts(runId: string): Sql {
  return { text: "SELECT state, count(*)::int AS n FROM plan_run_cells WHERE run_id = $1 GROUP BY state", values: [runId] };
}

/** Asks a run not ended to stop; answers its state after (none when it has no such run). */
export function cancelPlanRun(planId: string, runId: string): Sql {
  return {
    text: `UPDATE plan_runs SET state = CASE WHEN state IN ('pending', 'running') THEN 'cancelling' ELSE state END
       WHERE plan_id = $1 AND id = $2 RETURNING state`,
    values: [planId, runId],
  };
}

/**
 * The state of the plan run an execution is a cell of (no row: it is no run's), the run's row
 * held (shared) until the transaction ends. Not filtered by state in SQL: a row whose cancel is
 * being written is waited for and read as it is after, whereas a filter would skip it unseen.
 */
export function heldRunStateOfExecution(executionId: string): Sql {
  return {
    text: "SELECT r.state FROM plan_run_cells c JOIN plan_runs r ON r.id = c.run_id WHERE c.execution_id = $1 FOR SHARE OF r",
    values: [executionId],
  };
}

/** Runs that want a driver and that nobody holds (never taken, handed back, or whose driver stopped renewing). */
export function unheldPlanRuns(limit: number): Sql {
  return {
    text: `SELECT id FROM plan_runs WHERE state = ANY($1) AND (owner IS NULL OR lease_until IS NULL OR lease_until < now()) ORDER BY seq LIMIT $2`,
    values: [ACTIVE_RUN_STATES, limit],
  };
}

/** Takes a run whose lease is free or has run out; only one claimer wins. */
export function claimPlanRun(runId: string, owner: string, leaseMs: number): Sql {
  return {
    text: `UPDATE plan_runs SET owner = $2, lease_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND state = ANY($4) AND (owner IS NULL OR lease_until IS NULL OR lease_until < now() OR owner = $2)
       RETURNING ${RUN_COLUMNS}`,
    values: [runId, owner, leaseMs, ACTIVE_RUN_STATES],
  };
}

/** Extends `owner`'s lease; answers the run's state (none when the lease was lost). */
export function renewPlanRunLease(runId: string, owner: string, leaseMs: number): Sql {
  return {
    text: `UPDATE plan_runs SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND owner = $2 RETURNING state`,
    values: [runId, owner, leaseMs],
  };
}

/** Frees `owner`'s runs (only `runId` when given), or every run when `owner` is unset (a lone embedded server at start). */
export function releasePlanRuns(owner?: string, runId?: string): Sql {
  return {
    text: `UPDATE plan_runs SET owner = NULL, lease_until = NULL
       WHERE owner IS NOT NULL AND ($1::text IS NULL OR owner = $1) AND ($2::uuid IS NULL OR id = $2) RETURNING id`,
    values: [owner ?? null, runId ?? null],
  };
}

/** Moves `owner`'s run from one of `from` to `to`, setting `started`/`ended` to now when asked; answers the row. */
export function movePlanRun(runId: string, owner: string, from: readonly PlanRunState[], to: PlanRunState, stamp: "started" | "ended" | null): Sql {
  const set = stamp ? `, ${stamp} = now()` : "";
  return {
    text: `UPDATE plan_runs SET state = $4${set} WHERE id = $1 AND owner = $2 AND lease_until >= now() AND state = ANY($3) RETURNING ${RUN_COLUMNS}`,
    values: [runId, owner, from, to],
  };
}

/**
 * Records a cell's change, only while `owner` holds the run's lease (a driver that lost it
 * changes nothing); answers the cell after.
 */
export function updatePlanRunCell(runId: string, seq: number, owner: string, change: CellChange): Sql {
  return {
    text: `UPDATE plan_run_cells c SET state = COALESCE($4, c.state), attempts = COALESCE($5, c.attempts),
         error = CASE WHEN $6::boolean THEN $7 ELSE c.error END, precision = COALESCE($8, c.precision)
       FROM plan_runs r
       WHERE c.run_id = $1 AND c.seq = $2 AND r.id = c.run_id AND r.owner = $3 AND r.lease_until >= now()
       RETURNING ${CELL_COLUMNS.split(", ")
         .map((c) => `c.${c}`)
         .join(", ")}`,
    values: [
      runId,
      seq,
      owner,
      change.state ?? null,
      change.attempts ?? null,
      change.error !== undefined,
      change.error ?? null,
      change.precision ? json(change.precision) : null,
    ],
  };
}

/**
 * Cancels up to `limit` of the run's pending cells (the first ones) in one statement, only while
 * `owner` holds its lease; answers the cells after, in their order.
 */
export function cancelPendingCells(runId: string, owner: string, error: string, limit: number): Sql {
  return {
    text: `UPDATE plan_run_cells c SET state = 'cancelled', error = $3
       FROM plan_runs r
       WHERE c.run_id = $1 AND r.id = c.run_id AND r.owner = $2 AND r.lease_until >= now() AND c.state = 'pending'
         AND c.seq IN (SELECT seq FROM plan_run_cells WHERE run_id = $1 AND state = 'pending' ORDER BY seq LIMIT $4)
       RETURNING ${CELL_COLUMNS.split(", ")
         .map((c) => `c.${c}`)
         .join(", ")}`,
    values: [runId, owner, error, limit],
  };
}
