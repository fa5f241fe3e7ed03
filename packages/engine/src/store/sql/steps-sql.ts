import type { Provenance } from "@benchwright/contract";
import type { StepClaim, StepEnd, StepKey, StepKind } from "../../model/steps.js";
import { json, type Sql } from "./sql.js";

export function nextAttempt(executionId: string, step: StepKind): Sql {
  return {
    text: "SELECT COALESCE(MAX(attempt), 0) + 1 AS next FROM steps WHERE execution_id = $1 AND step = $2",
    values: [executionId, step],
  };
}

/** A new attempt, running; leased to `claim.owner` when given. */
export function insertStep(key: StepKey, started: Date, logFile: string, claim?: StepClaim): Sql {
  return {
    text: `INSERT INTO steps (execution_id, step, attempt, state, started, log_file, owner, lease_until, place)
         VALUES ($1, $2, $3, 'running', $4, $5, $6, CASE WHEN $6::text IS NULL THEN NULL ELSE now() + $7 * interval '1 millisecond' END, $8) RETURNING *`,
    values: [key.execution_id, key.step, key.attempt, started, logFile, claim?.owner ?? null, claim?.leaseMs ?? null, claim?.place ?? null],
  };
}

/** Ends a running attempt, its lease let go; only `owner`'s when given. */
export function endStep(key: StepKey, end: StepEnd, owner?: string): Sql {
  return {
    text: `UPDATE steps SET state = $4, duration = $5, exit_code = $6, error = $7, metrics = $8, error_code = $9, error_extras = $10,
           owner = NULL, lease_until = NULL
         WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND state = 'running' AND ($11::text IS NULL OR owner = $11) RETURNING *`,
    values: [
      key.execution_id,
      key.step,
      key.attempt,
      end.state,
      end.duration,
      end.exit_code,
      end.error,
      json(end.metrics),
      end.error_code ?? null,
      json(end.error_extras),
      owner ?? null,
    ],
  };
}

/** Records what produces a running attempt's figures; an attempt that has ended keeps what it had. */
export function setProvenance(key: StepKey, provenance: Provenance): Sql {
  return {
    text: "UPDATE steps SET provenance = $4 WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND state = 'running'",
    values: [key.execution_id, key.step, key.attempt, json(provenance)],
  };
}

/** Asks a running attempt to stop, with how its failure is to read; a cancel asked before keeps its words. */
export function requestCancel(key: StepKey, reason: string): Sql {
  return {
    text: `UPDATE steps SET cancel_requested = COALESCE(cancel_requested, $4)
         WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND state = 'running' RETURNING *`,
    values: [key.execution_id, key.step, key.attempt, reason],
  };
}

export function stepByKey(key: StepKey): Sql {
  return {
    text: "SELECT * FROM steps WHERE execution_id = $1 AND step = $2 AND attempt = $3",
    values: [key.execution_id, key.step, key.attempt],
  };
}

export function stepsOf(executionIds: string[]): Sql {
  return { text: "SELECT * FROM steps WHERE execution_id = ANY($1) ORDER BY started, step, attempt", values: [executionIds] };
}

export function runningSteps(executionIds?: string[]): Sql {
  if (executionIds) return { text: "SELECT * FROM steps WHERE state = 'running' AND execution_id = ANY($1)", values: [executionIds] };
  return { text: "SELECT * FROM steps WHERE state = 'running'" };
}
