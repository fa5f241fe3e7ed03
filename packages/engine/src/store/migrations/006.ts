import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 6,
  name: "plans: campaigns of targets and benchmarks, stored as their views",
  sql: `
    CREATE TABLE plans (
      id uuid PRIMARY KEY,
      seq bigserial UNIQUE,
      created timestamptz NOT NULL,
      body jsonb NOT NULL,
      inline_sealed text
    );
  `,
};
