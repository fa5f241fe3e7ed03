import type { Sql } from "./sql.js";

export function insertSessionPrincipal(sessionId: string, principal: string): Sql {
  return { text: "INSERT INTO session_principals (session_id, principal) VALUES ($1, $2)", values: [sessionId, principal] };
}

/** How many of the principal's sessions are live (not deleted). */
export function liveSessionCount(principal: string): Sql {
  return {
    text: `SELECT count(*)::int AS n FROM session_principals p JOIN sessions s ON s.id = p.session_id
      WHERE p.principal = $1 AND s.state IN ('active', 'deleting')`,
    values: [principal],
  };
}

/** How many executions of the principal's sessions are preparing or running. */
export function stepsUnderWayCount(principal: string): Sql {
  return {
    text: `SELECT count(*)::int AS n FROM session_principals p JOIN executions e ON e.session_id = p.session_id
      WHERE p.principal = $1 AND e.state IN ('preparing', 'running')`,
    values: [principal],
  };
}
