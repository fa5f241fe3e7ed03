import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 2,
  name: "step leases and handles, the event log, step logs in chunks",
  sql: `
    ALTER TABLE steps ADD COLUMN owner text;
    ALTER TABLE steps ADD COLUMN lease_until timestamptz;
    ALTER TABLE steps ADD COLUMN machine_id text;
    ALTER TABLE steps ADD COLUMN pgid integer;
    ALTER TABLE steps ADD COLUMN machine_log_start bigint;
    ALTER TABLE steps ADD COLUMN log_bytes bigint NOT NULL DEFAULT 0;
    ALTER TABLE steps ADD COLUMN error_code text;
    ALTER TABLE steps ADD COLUMN error_extras jsonb;
    CREATE INDEX steps_running ON steps(state) WHERE state = 'running';
    CREATE TABLE events (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      type text NOT NULL,
      session_id uuid,
      execution_id uuid,
      data jsonb NOT NULL
    );
    CREATE INDEX events_session ON events(session_id, id);
    CREATE INDEX events_execution ON events(execution_id, id);
    CREATE TABLE log_chunks (
      execution_id uuid NOT NULL,
      step text NOT NULL,
      attempt integer NOT NULL,
      start_offset bigint NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (execution_id, step, attempt, start_offset)
    );
    ALTER TABLE log_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
  `,
};
