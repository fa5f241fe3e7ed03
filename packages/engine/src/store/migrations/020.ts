import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 20,
  name: "a change's revision: told again when a refinement moves its point or its size",
  // 1 as first found; each refinement that moves the change's point, flips its direction or
  // moves its size by REVISED_SIZE or more adds one, and is told as the same change again.
  sql: `ALTER TABLE series_changes ADD COLUMN revision integer NOT NULL DEFAULT 1`,
};
