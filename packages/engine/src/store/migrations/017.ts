import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 17,
  name: "who started each plan run, and who made each plan; a principal's series found from its executions",
  // A run's sessions are its starter's, shared with every principal (a plan is a team's
  // campaign): the starter is the admin who asked, or for a scheduled run the plan's maker.
  // Runs and plans from before were the bootstrap admin's (NULL plans: nobody recorded).
  // A non-admin's series are those of the points of the executions it may read: found from
  // its executions (by owner) to their points (by execution), not by looking in every series'
  // points (seconds on a million points without them; an execution's points share one entry,
  // about 10 bytes a point).
  sql: `
    ALTER TABLE plan_runs ADD COLUMN started_by text NOT NULL DEFAULT 'bootstrap';
    ALTER TABLE plans ADD COLUMN created_by text;
    CREATE INDEX executions_owner ON executions(owner);
    CREATE INDEX series_points_execution ON series_points(execution_id);
  `,
};
