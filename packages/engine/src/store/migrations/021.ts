import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 21,
  name: "a precision plan's cell: its rounds, the precision reached, why it stopped",
  // NULL for a cell of a plan without a precision (every cell before this).
  sql: `ALTER TABLE plan_run_cells ADD COLUMN precision jsonb`,
};
