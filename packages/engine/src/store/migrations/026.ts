import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 26,
  name: "points from harnesses Benchwright does not run (ingests), and the branch and commit of every point",
  // An ingested point has no execution: it names its ingest instead (exactly one of the two).
  // A point's branch and commit say what code it measured, so that a gate compares a branch
  // with its own history or its base branch's. The primary key is rebuilt to carry the new
  // columns, so a series' points stay an index-only scan (see migration 14).
  sql: `
    CREATE TABLE ingests (
      id uuid PRIMARY KEY,
      owner text NOT NULL,
      adapter text NOT NULL,
      benchmark text NOT NULL,
      target text NOT NULL,
      branch text,
      commit_id text,
      points integer NOT NULL,
      created timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ingests_owner ON ingests(owner);
    ALTER TABLE series_points ALTER COLUMN execution_id DROP NOT NULL;
    ALTER TABLE series_points ADD COLUMN ingest_id uuid REFERENCES ingests(id);
    ALTER TABLE series_points ADD COLUMN branch text;
    ALTER TABLE series_points ADD COLUMN commit_id text;
    ALTER TABLE series_points ADD CONSTRAINT series_points_one_source CHECK ((execution_id IS NULL) <> (ingest_id IS NULL));
    ALTER TABLE series_points DROP CONSTRAINT series_points_pkey;
    ALTER TABLE series_points ADD PRIMARY KEY (series_id, seq) INCLUDE (execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id, ingest_id, branch, commit_id);
    CREATE INDEX series_points_ingest ON series_points(ingest_id) WHERE ingest_id IS NOT NULL;
    ALTER TABLE series_changes ALTER COLUMN execution_id DROP NOT NULL;
    ALTER TABLE series_changes ADD COLUMN ingest_id uuid
  `,
};
