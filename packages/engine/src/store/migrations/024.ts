import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 24,
  name: "the branch and commit an execution or a plan run measured, for the points it adds",
  // A CI's run (a gate's plan, or an execution made from a job) says what code it measured; its
  // points copy them (series_points.branch, commit_id, migration 26) as an ingest's do, so that a
  // gate compares a branch's runs with its own history or its base branch's.
  sql: `
    ALTER TABLE executions ADD COLUMN branch text;
    ALTER TABLE executions ADD COLUMN commit_id text;
    ALTER TABLE plan_runs ADD COLUMN branch text;
    ALTER TABLE plan_runs ADD COLUMN commit_id text
  `,
};
