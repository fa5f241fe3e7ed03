import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 23,
  name: "provider configurations written through the API, sealed",
  // The document (its credentials with it) is sealed with the server's key, as a session's
  // configuration is; version counts the writes. Files and the built-in local are not stored.
  sql: `CREATE TABLE provider_configs (
    name text PRIMARY KEY,
    version integer NOT NULL,
    document_sealed text NOT NULL,
    updated timestamptz NOT NULL DEFAULT now(),
    updated_by text
  )`,
};
