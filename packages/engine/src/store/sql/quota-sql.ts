import type { Sql } from "./sql.js";

/** How many of the principal's sessions are live (not deleted). */
export function liveSessionCount(principal: string): Sql {
  return {
    text: "SELECT count(*)::int AS n FROM sessions WHERE owner = $1 AND state IN ('active', 'deleting')",
    values: [principal],
  };
}

/** How many executions of the principal's sessions are preparing or running. */
export function stepsUnderWayCount(principal: string): Sql {
  return {
    text: `SELECT count(*)::int AS n FROM sessions s JOIN executions e ON e.session_id = s.id
      WHERE s.owner = $1 AND e.state IN ('preparing', 'running')`,
    values: [principal],
  };
}
