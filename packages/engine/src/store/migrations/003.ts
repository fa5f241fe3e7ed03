import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 3,
  name: "the workload parameter values of each execution",
  // Executions from before parameters ran their workloads as the defaults now say: '{}' claims no values for them.
  sql: `
    ALTER TABLE executions ADD COLUMN params jsonb NOT NULL DEFAULT '{}';
  `,
};
