import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 22,
  name: "benchmark definitions written through the API, each version kept; the version an execution runs",
  // A version is never changed nor removed: an execution made on it runs it to its end. A
  // definition's deletion marks its versions (deleted), so new executions cannot choose it.
  // An execution's definition_version is NULL for a built-in or a file's definition.
  sql: `
    CREATE TABLE benchmark_definitions (
      id text NOT NULL,
      version integer NOT NULL,
      digest text NOT NULL,
      document jsonb NOT NULL,
      created timestamptz NOT NULL DEFAULT now(),
      created_by text,
      deleted timestamptz,
      PRIMARY KEY (id, version)
    );
    ALTER TABLE executions ADD COLUMN definition_version integer;
    ALTER TABLE executions ADD COLUMN definition_digest text;
  `,
};
