import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 5,
  name: "machine roles: which role's part of a step is under way on its machine",
  // NULL: the workload has no roles, as every workload had before.
  sql: `
    ALTER TABLE steps ADD COLUMN role text;
  `,
};
