import type { FactChange, RunFigure, SeriesChangeRow, StoredBaseline } from "../../model/series.js";
import { POINT_FACTS } from "../../model/series.js";
import { readableExecution } from "../list-where.js";
import { json, type Sql } from "./sql.js";

const SERIES_COLUMNS = `s.id, s.seq::text AS seq, s.tool, s.workload, s.params, s.metric, s.tags, s.provider, s.service_type, s.unit, s.better,
  s.points, s.first_at, s.last_at, s.baseline, s.created`;
const POINT_COLUMNS = "p.series_id, p.seq, p.execution_id, p.plan_run_id, p.ingest_id, p.branch, p.commit_id, p.at, p.n, p.mean, p.ci_low, p.ci_high, f.facts";
/** Points with their facts: `series_facts` is small and shared, the points come from their primary key alone. */
const POINTS = "series_points p JOIN series_facts f ON f.id = p.facts_id";
const CHANGE_COLUMNS = `c.id, c.seq::text AS seq, c.series_id, c.point_seq, c.at, c.execution_id, c.ingest_id, c.direction, c.size, c.size_ci_low, c.size_ci_high,
  c.p_value, c.before, c.after, c.facts_changed, c.state, c.detected, c.revision`;
const FACT_LIST = POINT_FACTS.map((f) => `'${f}'`).join(", ");

/** The facts of an execution's machines that a point keeps, each with the values its machines gave. */
const EXECUTION_FACTS = `(SELECT COALESCE(jsonb_object_agg(f.key, f.vals), '{}'::jsonb) FROM (
                  SELECT kv.key, string_agg(DISTINCT kv.value, ', ' ORDER BY kv.value) AS vals
                    FROM jsonb_array_elements(COALESCE(e.exec_env->'vms', '[]'::jsonb)) v,
                         jsonb_each_text(CASE WHEN jsonb_typeof(v->'facts') = 'object' THEN v->'facts' ELSE '{}'::jsonb END) kv
                   WHERE kv.key IN (${FACT_LIST}) AND kv.value <> ''
                   GROUP BY kv.key) f)`;
const DIGEST = (facts: string) => `sha256(convert_to(${facts}::text, 'UTF8'))`;

/**
 * Keeps the execution's facts in `series_facts`, once. Its own statement, before
 * {@link recordRunPoints}: a run ending at the same time with the same new facts makes this one
 * wait for its commit, and the next statement (a new snapshot) then sees its row.
 */
export function keepRunFacts(executionId: string): Sql {
  return {
    text: `INSERT INTO series_facts (digest, facts)
             SELECT ${DIGEST("x.facts")}, x.facts FROM (SELECT ${EXECUTION_FACTS} AS facts FROM executions e WHERE e.id = $1) x
           ON CONFLICT (digest) DO NOTHING`,
    values: [executionId],
  };
}

/**
 * Appends one point per figure of a successful run to its series, made on first use, in one
 * statement: the execution's identity (tool, workload, params, target), its plan run and its
 * machines' facts (kept by {@link keepRunFacts} first) are read here, and the series' key is a
 * hash of that identity and the metric's (jsonb's text is canonical: the same identity always
 * gives the same key). The series' row is bumped (`points`), which orders two runs ending at
 * once (their series' rows are taken in the order of their keys, so two ends never wait for
 * each other); an execution has one point per series, its first successful run's.
 */
export function recordRunPoints(executionId: string, at: Date, figures: RunFigure[]): Sql {
  return {
    text: `WITH x AS (
        SELECT e.id, e.tool_id, e.workload_id, e.params, ss.provider_name, ss.service_type,
               (SELECT c.run_id FROM plan_run_cells c WHERE c.execution_id = e.id LIMIT 1) AS plan_run_id,
               COALESCE(e.branch, (SELECT r.branch FROM plan_run_cells c JOIN plan_runs r ON r.id = c.run_id WHERE c.execution_id = e.id LIMIT 1)) AS branch,
               COALESCE(e.commit_id, (SELECT r.commit_id FROM plan_run_cells c JOIN plan_runs r ON r.id = c.run_id WHERE c.execution_id = e.id LIMIT 1)) AS commit_id,
               (SELECT sf.id FROM series_facts sf WHERE sf.digest = ${DIGEST(EXECUTION_FACTS)}) AS facts_id
          FROM executions e JOIN sessions ss ON ss.id = e.session_id WHERE e.id = $1),
      m AS (SELECT * FROM jsonb_to_recordset($2::jsonb)
              AS m(metric text, tags jsonb, unit text, better text, n integer, mean double precision, ci_low double precision, ci_high double precision)),
      k AS (SELECT m.*, x.*, md5(jsonb_build_array(x.tool_id, x.workload_id, x.params, m.metric, m.tags, x.provider_name, x.service_type)::text) AS key
              FROM m CROSS JOIN x),
      fresh AS (SELECT k.* FROM k WHERE NOT EXISTS (
                  SELECT 1 FROM series s JOIN series_points p ON p.series_id = s.id WHERE s.key = k.key AND p.execution_id = k.id)),
      s AS (INSERT INTO series AS s (id, key, tool, workload, params, metric, tags, provider, service_type, unit, better, points, first_at, last_at, created)
              SELECT gen_random_uuid(), key, tool_id, workload_id, params, metric, tags, provider_name, service_type, unit, better, 1, $3, $3, now()
                FROM fresh ORDER BY key
              ON CONFLICT (key) DO UPDATE SET points = s.points + 1, unit = EXCLUDED.unit, better = COALESCE(EXCLUDED.better, s.better),
                first_at = LEAST(s.first_at, EXCLUDED.first_at), last_at = GREATEST(s.last_at, EXCLUDED.last_at)
              RETURNING s.id, s.key, s.points)
      INSERT INTO series_points (series_id, seq, execution_id, plan_run_id, branch, commit_id, at, n, mean, ci_low, ci_high, facts_id)
        SELECT s.id, s.points, fresh.id, fresh.plan_run_id, fresh.branch, fresh.commit_id, $3, fresh.n, fresh.mean, fresh.ci_low, fresh.ci_high, fresh.facts_id
          FROM s JOIN fresh ON fresh.key = s.key`,
    values: [executionId, json(figures), at],
  };
}

/**
 * Marks up to `limit` unchecked points checked and answers them: whoever marks a point checks
 * it (locked rows another checker is marking are skipped, so two checkers never take one point).
 */
export function claimUncheckedPoints(limit: number): Sql {
  return {
    text: `UPDATE series_points p SET checked = true
             FROM (SELECT series_id, seq FROM series_points WHERE NOT checked ORDER BY series_id, seq LIMIT $1 FOR UPDATE SKIP LOCKED) c
            WHERE p.series_id = c.series_id AND p.seq = c.seq AND NOT p.checked
        RETURNING p.series_id, p.seq`,
    values: [limit],
  };
}

/** The means of the `window` points of a series up to `seq`, oldest first (the primary key's order). */
export function windowMeans(seriesId: string, uptoSeq: number, window: number): Sql {
  return {
    text: `SELECT seq, mean FROM (SELECT seq, mean FROM series_points WHERE series_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT $3) w ORDER BY seq`,
    values: [seriesId, uptoSeq, window],
  };
}

/** The points of a series from `fromSeq` to `toSeq` (both in), oldest first. */
export function pointsBetween(seriesId: string, fromSeq: number, toSeq: number): Sql {
  return {
    text: `SELECT ${POINT_COLUMNS} FROM ${POINTS} WHERE p.series_id = $1 AND p.seq BETWEEN $2 AND $3 ORDER BY p.seq`,
    values: [seriesId, fromSeq, toSeq],
  };
}

/** Holds a series' row until the transaction ends: its changes are inserted one checker at a time. */
export function lockSeries(seriesId: string): Sql {
  return { text: `SELECT ${SERIES_COLUMNS} FROM series s WHERE s.id = $1 FOR UPDATE`, values: [seriesId] };
}

export type NewChange = Omit<SeriesChangeRow, "seq" | "state" | "detected" | "facts_changed" | "revision"> & { facts_changed: FactChange[] };

/**
 * The change recorded nearest to `pointSeq` in the series, if one is closer than `near` points:
 * two changes are at least a segment apart, so a closer one is the same change, found where
 * fewer points after it were known.
 */
export function nearbyChange(seriesId: string, pointSeq: number, near: number): Sql {
  return {
    text: `SELECT id, revision FROM series_changes WHERE series_id = $1 AND abs(point_seq - $2::integer) < $3 ORDER BY abs(point_seq - $2::integer), point_seq LIMIT 1`,
    values: [seriesId, pointSeq, near],
  };
}

/** How far (as a fraction, 0.03 = 3 points of percentage) a refinement moves a change's size to be told again. */
const REVISED_SIZE = 0.03;

/** Records a change; nothing when one is recorded at that point. */
export function insertChange(c: NewChange): Sql {
  return {
    text: `INSERT INTO series_changes AS c (id, series_id, point_seq, at, execution_id, direction, size, size_ci_low, size_ci_high, p_value, before, after, facts_changed, ingest_id, detected)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now())
           ON CONFLICT (series_id, point_seq) DO NOTHING
           RETURNING ${CHANGE_COLUMNS}`,
    values: changeValues(c),
  };
}

/**
 * Moves a recorded change to where it is found now and tells it with the points known now (its
 * id, state and detection time stay). Nothing when another change is recorded at that point.
 */
export function refineChange(id: string, c: NewChange): Sql {
  return {
    // A refinement that moves the change's point, flips it or moves its size by REVISED_SIZE is a
    // new revision, told again; smaller moves (each new point shifts the estimate) are not.
    text: `UPDATE series_changes AS c SET point_seq = $3, at = $4, execution_id = $5, ingest_id = $14, direction = $6, size = $7, size_ci_low = $8, size_ci_high = $9,
             p_value = $10, before = $11, after = $12, facts_changed = $13,
             revision = CASE WHEN c.point_seq <> $3 OR c.direction <> $6 OR abs(c.size - $7) >= ${REVISED_SIZE} THEN c.revision + 1 ELSE c.revision END
            WHERE c.id = $1 AND c.series_id = $2
              AND NOT EXISTS (SELECT 1 FROM series_changes o WHERE o.series_id = $2 AND o.point_seq = $3 AND o.id <> $1)
           RETURNING ${CHANGE_COLUMNS}`,
    // The recorded change's id in the new one's place.
    values: changeValues({ ...c, id }),
  };
}

function changeValues(c: NewChange): unknown[] {
  return [
    c.id,
    c.series_id,
    c.point_seq,
    c.at,
    c.execution_id,
    c.direction,
    c.size,
    c.size_ci_low,
    c.size_ci_high,
    c.p_value,
    json(c.before),
    json(c.after),
    json(c.facts_changed),
    c.ingest_id ?? null,
  ];
}

/** The plan a point's run belongs to, if any. */
export function planOfRun(planRunId: string): Sql {
  return { text: "SELECT plan_id FROM plan_runs WHERE id = $1", values: [planRunId] };
}

export interface SeriesFilter {
  tool?: string;
  workload?: string;
  metric?: string;
  provider?: string;
  service_type?: string;
  /** Only what this principal may read (see visibleExecution); unset: everything, by the statements an admin's reads always ran. */
  visibleTo?: string;
  afterSeq?: string;
  limit?: number;
}

/**
 * ` AND` the execution `column` names is one `principal` (a `$n`) may read, as the executions'
 * lists decide (readableExecution). Empty without a principal, so an admin's statements stay the
 * ones the series bench measures.
 */
function visibleExecution(column: string, principal: string | undefined): string {
  if (principal === undefined) return "";
  const ingest = column.replace(/execution_id$/, "ingest_id");
  return ` AND (EXISTS (SELECT 1 FROM executions e WHERE e.id = ${column} AND ${readableExecution("e", principal)})
    OR EXISTS (SELECT 1 FROM ingests i WHERE i.id = ${ingest} AND i.owner = ${principal}))`;
}

/**
 * A page of series with what their views show beside them: the latest point, the count of
 * open changes, and (for a series with a baseline) the means of its baseline's points and of
 * its latest level's (the points since its last change, at most `latestCap` of them).
 * With `visibleTo`, the series that hold a point of an execution that principal may read, each
 * told from those points alone (its count, first and last times, latest point, baseline and
 * latest level) and its changes of such executions: another principal's results are neither
 * listed nor summed in. The level still starts at the series' last change, whoever's it is.
 */
export function seriesPage(filter: SeriesFilter & { id?: string }, latestCap: number): Sql {
  const values: unknown[] = [];
  const where: string[] = [];
  const add = (column: string, value: unknown) => {
    if (value === undefined) return;
    values.push(value);
    where.push(`s.${column} = $${values.length}`);
  };
  add("id", filter.id);
  add("tool", filter.tool);
  add("workload", filter.workload);
  add("metric", filter.metric);
  add("provider", filter.provider);
  add("service_type", filter.service_type);
  if (filter.afterSeq !== undefined) {
    values.push(filter.afterSeq);
    where.push(`s.seq > $${values.length}::bigint`);
  }
  let principal: string | undefined;
  if (filter.visibleTo !== undefined) {
    values.push(filter.visibleTo);
    principal = `$${values.length}`;
  }
  values.push(filter.limit ?? null, latestCap);
  const limit = `$${values.length - 1}`;
  const cap = `$${values.length}`;
  if (principal === undefined) {
    return {
      text: `${seriesSelect(SERIES_COLUMNS, cap, () => "")}
      FROM series s ${whereOf(where)}
      ORDER BY s.seq LIMIT ${limit}`,
      values,
    };
  }
  // A principal's series and their figures, from its points alone: found from the executions it may
  // read (its own, by executions_owner; those of shared sessions), in one pass, rather than by
  // looking for one in every series' points. A point is then one of those executions'.
  // One series (getSeries): its points alone are counted. Its id is the first parameter.
  const one = filter.id === undefined ? "" : " AND p.series_id = $1";
  const visible = (column: string) => ` AND (${column} IN (SELECT id FROM ve) OR ${column.replace(/execution_id$/, "ingest_id")} IN (SELECT id FROM vi))`;
  return {
    text: `WITH ve AS (SELECT e.id FROM executions e WHERE e.owner = ${principal}
                   UNION SELECT e.id FROM sessions ss JOIN executions e ON e.session_id = ss.id WHERE ss.shared),
        vi AS (SELECT i.id FROM ingests i WHERE i.owner = ${principal}),
        v AS (SELECT p.series_id, count(*)::int AS points, min(p.at) AS first_at, max(p.at) AS last_at
                FROM series_points p WHERE (p.execution_id IN (SELECT id FROM ve) OR p.ingest_id IN (SELECT id FROM vi))${one} GROUP BY p.series_id)
      ${seriesSelect(SERIES_COLUMNS.replace("s.points, s.first_at, s.last_at", "v.points, v.first_at, v.last_at"), cap, visible)}
      FROM series s JOIN v ON v.series_id = s.id ${whereOf(where)}
      ORDER BY s.seq LIMIT ${limit}`,
    values,
  };
}

function whereOf(where: string[]): string {
  return where.length ? `WHERE ${where.join(" AND ")}` : "";
}

/**
 * `SELECT` of a series page's columns and what its view shows beside them; `visible(column)`
 * adds the condition that the execution `column` names is readable (empty: every point).
 */
function seriesSelect(columns: string, cap: string, visible: (column: string) => string): string {
  return `SELECT ${columns},
        (SELECT row_to_json(lp) FROM (SELECT ${POINT_COLUMNS} FROM ${POINTS} WHERE p.series_id = s.id${visible("p.execution_id")} ORDER BY p.seq DESC LIMIT 1) lp) AS latest,
        (SELECT count(*)::int FROM series_changes c WHERE c.series_id = s.id AND c.state = 'open'${visible("c.execution_id")}) AS open_changes,
        CASE WHEN s.baseline IS NOT NULL THEN (SELECT COALESCE(array_agg(p.mean ORDER BY p.seq), '{}') FROM series_points p
           WHERE p.series_id = s.id AND p.seq BETWEEN (s.baseline->>'from')::integer AND (s.baseline->>'to')::integer${visible("p.execution_id")}) END AS baseline_means,
        CASE WHEN s.baseline IS NOT NULL THEN (SELECT COALESCE(array_agg(l.mean ORDER BY l.seq), '{}') FROM (
           SELECT p.seq, p.mean FROM series_points p
            WHERE p.series_id = s.id AND p.seq >= COALESCE((SELECT max(c.point_seq) FROM series_changes c WHERE c.series_id = s.id), 1)${visible("p.execution_id")}
            ORDER BY p.seq DESC LIMIT ${cap}) l) END AS latest_means`;
}

/**
 * A page of a series' points, oldest first, after `afterSeq`; with `visibleTo`, those of
 * executions (and ingests) that principal may read; with `branch`, those of that branch.
 */
export function pointsPage(seriesId: string, afterSeq: number | undefined, limit: number | undefined, visibleTo?: string, branch?: string): Sql {
  const visible = visibleExecution("p.execution_id", visibleTo === undefined ? undefined : "$5");
  return {
    text: `SELECT ${POINT_COLUMNS} FROM ${POINTS} WHERE p.series_id = $1 AND ($2::integer IS NULL OR p.seq > $2::integer)
             AND ($4::text IS NULL OR p.branch = $4::text)${visible} ORDER BY p.seq LIMIT $3`,
    values: [seriesId, afterSeq ?? null, limit ?? null, branch ?? null, ...(visibleTo === undefined ? [] : [visibleTo])],
  };
}

/** Whether the series holds a point of an execution `visibleTo` may read. */
export function seriesVisible(seriesId: string, visibleTo: string): Sql {
  return {
    text: `SELECT 1 FROM series_points p WHERE p.series_id = $1${visibleExecution("p.execution_id", "$2")} LIMIT 1`,
    values: [seriesId, visibleTo],
  };
}

/** Sets (or, with null, clears) a series' baseline; answers whether the series exists. */
export function setBaseline(seriesId: string, baseline: StoredBaseline | null): Sql {
  return { text: "UPDATE series SET baseline = $2::jsonb WHERE id = $1 RETURNING id", values: [seriesId, json(baseline)] };
}

export interface ChangeFilter {
  direction?: string;
  state?: string;
  series_id?: string;
  id?: string;
  /** Only the changes whose execution (the first point of the new level) this principal may read. */
  visibleTo?: string;
  afterSeq?: string;
  limit?: number;
}

/** A page of changes with their series' identity (`series`, as JSON), in the order they were found. */
export function changesPage(filter: ChangeFilter): Sql {
  const values: unknown[] = [];
  const where: string[] = [];
  const add = (column: string, value: unknown, cast = "") => {
    if (value === undefined) return;
    values.push(value);
    where.push(`c.${column} = $${values.length}${cast}`);
  };
  add("id", filter.id);
  add("direction", filter.direction);
  add("state", filter.state);
  add("series_id", filter.series_id);
  add("seq", filter.afterSeq, "::bigint");
  if (filter.afterSeq !== undefined) where[where.length - 1] = where[where.length - 1].replace("c.seq =", "c.seq >");
  if (filter.visibleTo !== undefined) {
    values.push(filter.visibleTo);
    where.push(visibleExecution("c.execution_id", `$${values.length}`).replace(/^ AND /, ""));
  }
  values.push(filter.limit ?? null);
  return {
    text: `SELECT ${CHANGE_COLUMNS},
        json_build_object('tool', s.tool, 'workload', s.workload, 'params', s.params, 'metric', s.metric, 'tags', s.tags,
          'provider', s.provider, 'service_type', s.service_type, 'unit', s.unit, 'better', s.better) AS series
      FROM series_changes c JOIN series s ON s.id = c.series_id
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY c.seq LIMIT $${values.length}`,
    values,
  };
}

/** Acknowledges an open change; answers the row (acknowledged now or before) when it exists. */
export function acknowledgeChange(id: string): Sql {
  return {
    text: `UPDATE series_changes c SET state = 'acknowledged' WHERE c.id = $1 RETURNING ${CHANGE_COLUMNS}`,
    values: [id],
  };
}

/** Which way is better for a series' metric (null when its definition does not say). */
export function seriesBetter(seriesId: string): Sql {
  return { text: "SELECT better FROM series WHERE id = $1", values: [seriesId] };
}
