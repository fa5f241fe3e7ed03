import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 14,
  name: "series points: their machines' facts kept once, and a series' points read from its primary key alone",
  // A series' points are appended over months between other series' points, so each sits on
  // its own heap page: reading 1,000 of them read 1,000 pages. The primary key now carries
  // every column a reader asks for (an index-only scan reads a few leaf pages), and the facts,
  // the same for most points, are a reference to one row of series_facts instead of a copy.
  // The points are copied into a new table (in series order) rather than updated in place:
  // an UPDATE of every row would leave the table twice its size.
  sql: `
    CREATE TABLE series_facts (
      id bigserial PRIMARY KEY,
      digest bytea NOT NULL UNIQUE,
      facts jsonb NOT NULL
    );
    INSERT INTO series_facts (digest, facts)
      SELECT DISTINCT ON (d) d, facts FROM (SELECT sha256(convert_to(facts::text, 'UTF8')) AS d, facts FROM series_points) p ORDER BY d;
    ALTER TABLE series_points RENAME TO series_points_before_14;
    CREATE TABLE series_points (
      series_id uuid NOT NULL REFERENCES series(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      execution_id uuid NOT NULL,
      plan_run_id uuid,
      at timestamptz NOT NULL,
      n integer NOT NULL,
      mean double precision NOT NULL,
      ci_low double precision,
      ci_high double precision,
      facts_id bigint NOT NULL REFERENCES series_facts(id),
      checked boolean NOT NULL DEFAULT false
    );
    INSERT INTO series_points (series_id, seq, execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id, checked)
      SELECT p.series_id, p.seq, p.execution_id, p.plan_run_id, p.at, p.n, p.mean, p.ci_low, p.ci_high, f.id, p.checked
        FROM series_points_before_14 p JOIN series_facts f ON f.digest = sha256(convert_to(p.facts::text, 'UTF8'))
       ORDER BY p.series_id, p.seq;
    DROP TABLE series_points_before_14;
    ALTER TABLE series_points ADD PRIMARY KEY (series_id, seq) INCLUDE (execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id);
    ALTER TABLE series_points ADD UNIQUE (series_id, execution_id);
    CREATE INDEX series_points_unchecked ON series_points(series_id, seq) WHERE NOT checked;
  `,
};
