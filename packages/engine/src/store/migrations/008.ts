import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 8,
  name: "step cancels: a cancel request on a running step, which its follower reads as it renews its lease",
  // NULL: nobody asked to cancel the step, as nobody could before.
  sql: `
    ALTER TABLE steps ADD COLUMN cancel_requested text;
  `,
};
