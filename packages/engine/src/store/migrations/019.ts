import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 19,
  name: "a plan's ticks skipped while its previous run went on",
  // Counted on the plan's row (a skipped tick starts no run to record it by), with the latest.
  sql: `
    ALTER TABLE plans ADD COLUMN schedule_skipped integer NOT NULL DEFAULT 0;
    ALTER TABLE plans ADD COLUMN schedule_last_skipped timestamptz;
  `,
};
