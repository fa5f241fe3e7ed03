import type { ExecutionState, NewExecution } from "../../model/executions.js";
import type { VmRecord } from "../../model/machines.js";
import { executionsClause, SqlParams, type ExecutionWhere } from "../list-where.js";
import { json, type Sql } from "./sql.js";

const EXECUTION_COLUMNS =
  "id, session_id, tool_id, workload_id, test, params, repetitions, telemetry, state, created, exec_env, metrics, definition_version, definition_digest, branch, commit_id";
/** The execution's columns, of the table aliased `e`. */
const E_EXECUTION_COLUMNS = EXECUTION_COLUMNS.split(", ")
  .map((c) => `e.${c}`)
  .join(", ");

export function insertExecution(row: NewExecution): Sql {
  return {
    text: `INSERT INTO executions (id, session_id, tool_id, workload_id, test, params, repetitions, telemetry, state, created, owner, definition_version, definition_digest, branch, commit_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, (SELECT owner FROM sessions WHERE id = $2), $11, $12, $13, $14)`,
    values: [
      row.id,
      row.session_id,
      row.tool_id,
      row.workload_id,
      json(row.test),
      json(row.params ?? {}),
      json(row.repetitions),
      row.telemetry ?? null,
      row.state,
      row.created,
      row.definition_version ?? null,
      row.definition_digest ?? null,
      row.branch ?? null,
      row.commit_id ?? null,
    ],
  };
}

export function executionById(id: string): Sql {
  return { text: `SELECT ${EXECUTION_COLUMNS} FROM executions WHERE id = $1`, values: [id] };
}

/** An execution with its session's row as JSON, `session`. */
export function executionWithSession(id: string): Sql {
  return {
    text: `SELECT ${E_EXECUTION_COLUMNS}, row_to_json(s.*) AS session
         FROM executions e JOIN sessions s ON s.id = e.session_id WHERE e.id = $1`,
    values: [id],
  };
}

export function executionsOf(sessionIds?: string[]): Sql {
  if (sessionIds) return { text: `SELECT ${EXECUTION_COLUMNS} FROM executions WHERE session_id = ANY($1) ORDER BY seq`, values: [sessionIds] };
  return { text: `SELECT ${EXECUTION_COLUMNS} FROM executions ORDER BY seq` };
}

/** Locks the execution's row, so that the state it had is the one an update replaces. */
export function lockedExecutionState(id: string): Sql {
  return { text: "SELECT state FROM executions WHERE id = $1 FOR UPDATE", values: [id] };
}

export function moveExecution(id: string, from: ExecutionState[], to: ExecutionState): Sql {
  return {
    text: `UPDATE executions SET state = $3 WHERE id = $1 AND state = ANY($2) RETURNING ${EXECUTION_COLUMNS}`,
    values: [id, from, to],
  };
}

/**
 * Moves the execution from one of `from` to `to` in one statement, its row locked by the
 * subquery before it is updated; returns the state it had and its session.
 */
export function moveExecutionReturningBefore(id: string, from: ExecutionState[], to: ExecutionState): Sql {
  return {
    text: `UPDATE executions e SET state = $3 FROM (SELECT id, state FROM executions WHERE id = $1 FOR UPDATE) b
         WHERE e.id = b.id AND b.state = ANY($2) RETURNING b.state, e.session_id`,
    values: [id, from, to],
  };
}

/**
 * A step's end on its execution: its run's metrics when given, and the state move only from
 * `from`, in one statement that says whether the state moved; the row is locked before it is read.
 */
export function endOnExecution(id: string, from: ExecutionState, to: ExecutionState, metrics: string | null): Sql {
  return {
    text: `UPDATE executions e SET metrics = COALESCE($4::jsonb, e.metrics), state = CASE WHEN b.state = $2 THEN $3 ELSE e.state END
           FROM (SELECT id, state FROM executions WHERE id = $1 FOR UPDATE) b
          WHERE e.id = b.id RETURNING e.session_id, b.state = $2 AS moved`,
    values: [id, from, to, metrics],
  };
}

export function setExecEnv(id: string, env: { vms: VmRecord[] }): Sql {
  return { text: "UPDATE executions SET exec_env = $2 WHERE id = $1", values: [id, json(env)] };
}

// A prepare's metrics are its machines' boot times (few); a run's, its execution's own `metrics` already.
const STEP_SUMMARY_FIELDS = [
  ...["step", "attempt", "state", "started", "duration", "exit_code", "error", "error_code"].map((f) => `'${f}', s.${f}`),
  "'metrics', CASE WHEN s.step = 'prepare' THEN s.metrics END",
  "'provenance', s.provenance",
].join(", ");

/** The executions `where` selects (or all), each with `seq` and its steps aggregated as JSON, `steps`. */
export function executionsWithSteps(where: ExecutionWhere | "all"): Sql {
  const params = new SqlParams();
  const text = `SELECT ${E_EXECUTION_COLUMNS}, e.seq::text AS seq,
         COALESCE((SELECT json_agg(json_build_object(${STEP_SUMMARY_FIELDS}) ORDER BY s.started, s.step, s.attempt)
                   FROM steps s WHERE s.execution_id = e.id), '[]'::json) AS steps
       FROM executions e ${executionsClause(where === "all" ? {} : where, params)}`;
  return { text, values: params.values };
}
