import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 10,
  name: "series: each metric of each benchmark on each target over time, its points and the changes found in them",
  // `points` is the last point's seq: a run's end bumps it as it appends (the series' row is the
  // lock that orders two ends of one series) and reads nothing else of the series.
  sql: `
    CREATE TABLE series (
      id uuid PRIMARY KEY,
      seq bigserial UNIQUE,
      key text NOT NULL UNIQUE,
      tool text NOT NULL,
      workload text NOT NULL,
      params jsonb NOT NULL,
      metric text NOT NULL,
      tags jsonb NOT NULL,
      provider text NOT NULL,
      service_type text NOT NULL,
      unit text NOT NULL,
      better text,
      points integer NOT NULL DEFAULT 0,
      first_at timestamptz,
      last_at timestamptz,
      baseline jsonb,
      created timestamptz NOT NULL
    );
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
      facts jsonb NOT NULL DEFAULT '{}',
      checked boolean NOT NULL DEFAULT false,
      PRIMARY KEY (series_id, seq),
      UNIQUE (series_id, execution_id)
    );
    CREATE INDEX series_points_unchecked ON series_points(series_id, seq) WHERE NOT checked;
    CREATE TABLE series_changes (
      id uuid PRIMARY KEY,
      seq bigserial UNIQUE,
      series_id uuid NOT NULL REFERENCES series(id) ON DELETE CASCADE,
      point_seq integer NOT NULL,
      at timestamptz NOT NULL,
      execution_id uuid NOT NULL,
      direction text NOT NULL,
      size double precision NOT NULL,
      size_ci_low double precision,
      size_ci_high double precision,
      p_value double precision NOT NULL,
      before jsonb NOT NULL,
      after jsonb NOT NULL,
      facts_changed jsonb NOT NULL,
      state text NOT NULL DEFAULT 'open',
      detected timestamptz NOT NULL,
      UNIQUE (series_id, point_seq)
    );
    CREATE INDEX series_changes_state ON series_changes(state, seq);
    CREATE INDEX plan_run_cells_execution ON plan_run_cells(execution_id);
  `,
};
