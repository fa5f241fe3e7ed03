import type { NewSessionRow, SessionState } from "../../model/sessions.js";
import { sessionsSelect, SqlParams, type SessionWhere } from "../list-where.js";
import type { Sql } from "./sql.js";

export function insertSession(row: NewSessionRow): Sql {
  return {
    text: `INSERT INTO sessions (id, provider_name, service_type, provider_class, driver, region, config_sealed, state, created, owner, shared)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, COALESCE($10, 'bootstrap'), COALESCE($11, false))`,
    values: [
      row.id,
      row.provider_name,
      row.service_type,
      row.provider_class,
      row.driver,
      row.region,
      row.config_sealed,
      row.state,
      row.created,
      row.owner ?? null,
      row.shared ?? null,
    ],
  };
}

export function sessionById(id: string): Sql {
  return { text: "SELECT * FROM sessions WHERE id = $1", values: [id] };
}

export function sessionsById(ids: string[]): Sql {
  return { text: "SELECT * FROM sessions WHERE id = ANY($1)", values: [ids] };
}

export function sessionsIn(states: SessionState[]): Sql {
  return { text: "SELECT * FROM sessions WHERE state = ANY($1) ORDER BY created, id", values: [states] };
}

export function sessionStateOf(id: string): Sql {
  return { text: "SELECT state FROM sessions WHERE id = $1", values: [id] };
}

/** Moves a session from one of `from` to `to`, stamping its deletion; returns its id when it moved. */
export function moveSession(id: string, from: SessionState[], to: SessionState): Sql {
  return {
    text: `UPDATE sessions SET state = $3, deleted_at = CASE WHEN $3 = 'deleted' THEN now() ELSE deleted_at END
         WHERE id = $1 AND state = ANY($2) RETURNING id`,
    values: [id, from, to],
  };
}

/**
 * The state of an execution's session, its row held (shared) until the transaction ends: a
 * DELETE's move to `deleting` waits for it, and it for that move.
 */
export function heldSessionStateOfExecution(executionId: string): Sql {
  return {
    text: "SELECT s.state FROM executions e JOIN sessions s ON s.id = e.session_id WHERE e.id = $1 FOR SHARE OF s",
    values: [executionId],
  };
}

const SESSION_SUMMARY_COLUMNS = "id, provider_name, service_type, provider_class, driver, region, state, created, deleted_at";

/** The sessions `where` selects as their views show them, each with `created_key`, its page key. */
export function sessionSummaries(where: SessionWhere): Sql {
  const params = new SqlParams();
  // created as text too, in UTC whatever the server's settings: its microseconds, which a Date would round, make the page key.
  const text = sessionsSelect(where, params, `${SESSION_SUMMARY_COLUMNS}, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key`);
  return { text, values: params.values };
}
