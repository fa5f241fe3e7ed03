import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 4,
  name: "repeated runs: the plan of each execution, and the repetition a step's part is under way in",
  // NULL: the run measures once, as every run did before.
  sql: `
    ALTER TABLE executions ADD COLUMN repetitions jsonb;
    ALTER TABLE steps ADD COLUMN repetition integer;
  `,
};
