import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 13,
  name: "steps.provenance: what produced a run attempt's figures",
  // Written once a run attempt has its machines, before it measures; null for prepares and
  // for runs from before provenance was recorded.
  sql: `
    ALTER TABLE steps ADD COLUMN provenance jsonb;
  `,
};
