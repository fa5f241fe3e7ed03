import type { RunFigure } from "../../model/series.js";
import { json, type Sql } from "./sql.js";

/** What an ingest records besides its figures: who sent it, from which harness, and what code it measured. */
export interface NewIngest {
  id: string;
  owner: string;
  adapter: string;
  /** The series' tool is the adapter, its workload this name, its target `external` / `target`. */
  benchmark: string;
  target: string;
  branch: string | null;
  commit_id: string | null;
  at: Date;
  /** The client's machine's facts, as a run's machines' (kernel, cpu_model...). */
  facts: Record<string, string>;
}

export function insertIngest(i: NewIngest, points: number): Sql {
  return {
    text: `INSERT INTO ingests (id, owner, adapter, benchmark, target, branch, commit_id, points, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    values: [i.id, i.owner, i.adapter, i.benchmark, i.target, i.branch, i.commit_id, points, i.at],
  };
}

/** Keeps the client's facts in `series_facts`, once, and answers their row's id. */
export function keepIngestFacts(facts: Record<string, string>): Sql {
  return {
    text: `WITH f AS (SELECT $1::jsonb AS facts),
        ins AS (INSERT INTO series_facts (digest, facts) SELECT sha256(convert_to(f.facts::text, 'UTF8')), f.facts FROM f
                ON CONFLICT (digest) DO NOTHING RETURNING id)
      SELECT id FROM ins UNION ALL SELECT sf.id FROM series_facts sf, f WHERE sf.digest = sha256(convert_to(f.facts::text, 'UTF8'))`,
    values: [json(facts)],
  };
}

/**
 * Appends one point per figure of an ingest to its series, made on first use, as
 * recordRunPoints does for a run: the series' key hashes the same identity (tool = the adapter,
 * workload = the benchmark's name, no params, provider `external`, service type = the target),
 * so an ingested series is a series like any other. Answers each point's series and seq.
 */
export function recordIngestPoints(i: NewIngest, factsId: number, figures: RunFigure[]): Sql {
  return {
    text: `WITH m AS (SELECT * FROM jsonb_to_recordset($2::jsonb)
              AS m(metric text, tags jsonb, unit text, better text, n integer, mean double precision, ci_low double precision, ci_high double precision)),
      k AS (SELECT m.*, md5(jsonb_build_array($3::text, $4::text, '{}'::jsonb, m.metric, m.tags, 'external'::text, $5::text)::text) AS key FROM m),
      s AS (INSERT INTO series AS s (id, key, tool, workload, params, metric, tags, provider, service_type, unit, better, points, first_at, last_at, created)
              SELECT gen_random_uuid(), key, $3, $4, '{}'::jsonb, metric, tags, 'external', $5, unit, better, 1, $6, $6, now()
                FROM k ORDER BY key
              ON CONFLICT (key) DO UPDATE SET points = s.points + 1, unit = EXCLUDED.unit, better = COALESCE(EXCLUDED.better, s.better),
                first_at = LEAST(s.first_at, EXCLUDED.first_at), last_at = GREATEST(s.last_at, EXCLUDED.last_at)
              RETURNING s.id, s.key, s.points)
      INSERT INTO series_points (series_id, seq, execution_id, plan_run_id, ingest_id, branch, commit_id, at, n, mean, ci_low, ci_high, facts_id)
        SELECT s.id, s.points, NULL, NULL, $1, $7, $8, $6, k.n, k.mean, k.ci_low, k.ci_high, $9
          FROM s JOIN k ON k.key = s.key
      RETURNING series_id, seq`,
    values: [i.id, json(figures), i.adapter, i.benchmark, i.target, i.at, i.branch, i.commit_id, factsId],
  };
}

/** The points of an ingest, with their series' identity (as JSON `series`). */
export function ingestPoints(ingestId: string): Sql {
  return {
    text: `SELECT p.series_id, p.seq, p.ingest_id, p.branch, p.commit_id, p.at, p.n, p.mean, p.ci_low, p.ci_high,
        json_build_object('tool', s.tool, 'workload', s.workload, 'params', s.params, 'metric', s.metric, 'tags', s.tags,
          'provider', s.provider, 'service_type', s.service_type, 'unit', s.unit, 'better', s.better) AS series
      FROM series_points p JOIN series s ON s.id = p.series_id WHERE p.ingest_id = $1 ORDER BY s.seq`,
    values: [ingestId],
  };
}

export function ingestOwner(ingestId: string): Sql {
  return { text: "SELECT owner FROM ingests WHERE id = $1", values: [ingestId] };
}
