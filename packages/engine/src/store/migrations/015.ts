import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 15,
  name: "API tokens per principal, and the owner of each session and execution",
  // A token is kept as its sha256 only (it is shown once, at creation). A session or an
  // execution made before principals existed belongs to the bootstrap admin; `shared`
  // sessions (and their executions) are readable by every principal.
  sql: `
    CREATE TABLE api_tokens (
      id uuid PRIMARY KEY,
      principal text NOT NULL,
      role text NOT NULL,
      name text,
      token_sha256 bytea NOT NULL UNIQUE,
      created timestamptz NOT NULL DEFAULT now(),
      expires timestamptz,
      revoked timestamptz,
      seq bigserial
    );
    ALTER TABLE sessions ADD COLUMN owner text NOT NULL DEFAULT 'bootstrap';
    ALTER TABLE sessions ADD COLUMN shared boolean NOT NULL DEFAULT false;
    ALTER TABLE executions ADD COLUMN owner text NOT NULL DEFAULT 'bootstrap';
    CREATE INDEX sessions_owner ON sessions(owner, created, id);
  `,
};
