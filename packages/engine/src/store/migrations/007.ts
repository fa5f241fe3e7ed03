import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 7,
  name: "plan runs: each run's state and driver's lease, and its cells",
  // The ids of a run's sessions and of its cells' executions are given here, before they are
  // made: a driver that takes over makes each at most once.
  sql: `
    CREATE TABLE plan_runs (
      id uuid PRIMARY KEY,
      plan_id uuid NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
      seq bigserial UNIQUE,
      state text NOT NULL,
      created timestamptz NOT NULL,
      started timestamptz,
      ended timestamptz,
      sessions jsonb NOT NULL,
      owner text,
      lease_until timestamptz
    );
    CREATE INDEX plan_runs_plan ON plan_runs(plan_id, seq);
    CREATE INDEX plan_runs_active ON plan_runs(state) WHERE state IN ('pending', 'running', 'cancelling');
    CREATE TABLE plan_run_cells (
      run_id uuid NOT NULL REFERENCES plan_runs(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      target text NOT NULL,
      benchmark integer NOT NULL,
      cell integer NOT NULL,
      tool text NOT NULL,
      workload text NOT NULL,
      params jsonb NOT NULL,
      state text NOT NULL,
      execution_id uuid NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      error text,
      PRIMARY KEY (run_id, seq)
    );
  `,
};
