import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 18,
  name: "steps.place: the host and data dir of a step's first driver, where its parts on the engine's own host run",
  // A part on the engine's own host (the local provider) runs in a dir below its driver's data
  // dir: a driver that takes the step over elsewhere (another host, another data dir) cannot
  // reach it, and must not start it again there. NULL: rows from before, as they were.
  sql: `
    ALTER TABLE steps ADD COLUMN place text;
  `,
};
