import type { StepHandle, StepKey } from "../../model/steps.js";
import { json, type Sql } from "./sql.js";

/** Takes a running step whose lease is free, has run out, or is `owner`'s already; the first claim of a step records its place. */
export function claimStep(key: StepKey, owner: string, leaseMs: number, place?: string): Sql {
  return {
    text: `UPDATE steps SET owner = $4, lease_until = now() + $5 * interval '1 millisecond', place = COALESCE(place, $6)
       WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND state = 'running'
         AND (owner IS NULL OR lease_until IS NULL OR lease_until < now() OR owner = $4)
       RETURNING *`,
    values: [key.execution_id, key.step, key.attempt, owner, leaseMs, place ?? null],
  };
}

/** Extends `owner`'s lease of a running step; returns its session's state and the cancel asked of it, if any. */
export function renewLease(key: StepKey, owner: string, leaseMs: number): Sql {
  return {
    text: `UPDATE steps s SET lease_until = now() + $5 * interval '1 millisecond'
       FROM executions e JOIN sessions ss ON ss.id = e.session_id
       WHERE s.execution_id = $1 AND s.step = $2 AND s.attempt = $3 AND s.state = 'running' AND s.owner = $4 AND e.id = s.execution_id
       RETURNING ss.state AS session_state, s.cancel_requested`,
    values: [key.execution_id, key.step, key.attempt, owner, leaseMs],
  };
}

/** Frees the leases of `owner`'s running steps, or of every running step when `owner` is unset. */
export function releaseLeases(owner?: string): Sql {
  return {
    text: `UPDATE steps SET owner = NULL, lease_until = NULL WHERE state = 'running' AND owner IS NOT NULL AND ($1::text IS NULL OR owner = $1) RETURNING attempt`,
    values: [owner ?? null],
  };
}

export function heldSteps(executionIds: string[]): Sql {
  return {
    text: `SELECT execution_id, step, attempt FROM steps
       WHERE state = 'running' AND execution_id = ANY($1) AND owner IS NOT NULL AND lease_until >= now()`,
    values: [executionIds],
  };
}

export function orphanedSteps(limit: number): Sql {
  return {
    text: `SELECT execution_id, step, attempt FROM steps
       WHERE state = 'running' AND (owner IS NULL OR lease_until IS NULL OR lease_until < now())
       ORDER BY started LIMIT $1`,
    values: [limit],
  };
}

/** Records the machine part under way of `owner`'s running step; returns its session's state and the cancel asked of it, if any. */
export function recordStepHandle(key: StepKey, owner: string, handle: StepHandle): Sql {
  return {
    text: `UPDATE steps s SET machine_id = $5, pgid = $6, machine_log_start = $7, metrics = $8, repetition = $9, role = $10,
         provenance = COALESCE(s.provenance, $11)
       FROM executions e JOIN sessions ss ON ss.id = e.session_id
       WHERE s.execution_id = $1 AND s.step = $2 AND s.attempt = $3 AND s.owner = $4 AND s.state = 'running' AND e.id = s.execution_id
       RETURNING ss.state AS session_state, s.cancel_requested`,
    values: [
      key.execution_id,
      key.step,
      key.attempt,
      owner,
      handle.machine_id,
      handle.pgid,
      handle.machine_log_start,
      json(handle.metrics),
      handle.repetition ?? null,
      handle.role ?? null,
      json(handle.provenance),
    ],
  };
}
