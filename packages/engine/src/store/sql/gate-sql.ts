import { readableExecution } from "../list-where.js";
import type { Sql } from "./sql.js";

/** A point's series identity, as JSON `series`, and the label of the plan run's target it was a cell of (null for an ingest's or a plain execution's). */
const POINT_COLUMNS = `p.series_id, p.seq, p.ingest_id, p.execution_id, p.branch, p.commit_id, p.at, p.n, p.mean, p.ci_low, p.ci_high,
        (SELECT c.target FROM plan_run_cells c WHERE c.execution_id = p.execution_id LIMIT 1) AS run_target,
        json_build_object('tool', s.tool, 'workload', s.workload, 'params', s.params, 'metric', s.metric, 'tags', s.tags,
          'provider', s.provider, 'service_type', s.service_type, 'unit', s.unit, 'better', s.better) AS series`;

/** The points of an ingest, with their series' identity. */
export function ingestGatePoints(ingestId: string): Sql {
  return {
    text: `SELECT ${POINT_COLUMNS} FROM series_points p JOIN series s ON s.id = p.series_id WHERE p.ingest_id = $1 ORDER BY s.seq`,
    values: [ingestId],
  };
}

/** The points of executions (each execution's first successful run's, one per series), with their series' identity. */
export function executionGatePoints(executionIds: readonly string[]): Sql {
  return {
    text: `SELECT ${POINT_COLUMNS} FROM series_points p JOIN series s ON s.id = p.series_id
            WHERE p.execution_id = ANY($1::uuid[]) ORDER BY s.seq, p.seq`,
    values: [executionIds],
  };
}

/** Which of these executions exist and, with `visibleTo`, that principal may read. */
export function readableExecutions(executionIds: readonly string[], visibleTo: string | undefined): Sql {
  return {
    text: `SELECT e.id FROM executions e WHERE e.id = ANY($1::uuid[])${visibleTo === undefined ? "" : ` AND ${readableExecution("e", "$2")}`}`,
    values: visibleTo === undefined ? [executionIds] : [executionIds, visibleTo],
  };
}

/**
 * A gate's baseline: the means of a series' latest points on `branch` before `beforeSeq`, other
 * than those of what is gated (its ingest, or its executions), at most `last`, since `since`
 * when given; newest first. (A run's point has no ingest: `IS DISTINCT FROM` a null ingest would leave it out.)
 */
export function branchHistory(q: {
  seriesId: string;
  branch: string;
  beforeSeq: number;
  exclude: { ingest: string | null; executions: readonly string[] };
  last: number;
  since: Date | null;
}): Sql {
  return {
    text: `SELECT p.seq, p.mean, p.commit_id FROM series_points p
            WHERE p.series_id = $1 AND p.branch = $2 AND p.seq < $3 AND ($4::uuid IS NULL OR p.ingest_id IS DISTINCT FROM $4::uuid)
              AND (p.execution_id IS NULL OR p.execution_id <> ALL($7::uuid[]))
              AND ($6::timestamptz IS NULL OR p.at >= $6::timestamptz)
            ORDER BY p.seq DESC LIMIT $5`,
    values: [q.seriesId, q.branch, q.beforeSeq, q.exclude.ingest, q.last, q.since, q.exclude.executions],
  };
}
