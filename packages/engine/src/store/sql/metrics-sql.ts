import { executionsClause, SqlParams, type ExecutionWhere } from "../list-where.js";
import type { Sql } from "./sql.js";

/** The successful run attempts of the executions `where` selects, one row per attempt, and one without for an execution that has none. */
export function runMetrics(where: ExecutionWhere): Sql {
  const params = new SqlParams();
  const text = `SELECT e.seq::text AS seq, e.id AS execution_id, e.session_id, ss.provider_name, ss.service_type, e.tool_id, e.workload_id,
              e.params, e.exec_env, st.attempt, st.started, st.metrics
         FROM (SELECT e.* FROM executions e ${executionsClause(where, params)}) e
         JOIN sessions ss ON ss.id = e.session_id
         LEFT JOIN steps st ON st.execution_id = e.id AND st.step = 'run' AND st.state = 'succeeded'
        ORDER BY e.seq, st.attempt`;
  return { text, values: params.values };
}
