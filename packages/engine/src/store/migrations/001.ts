import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 1,
  name: "sessions, executions, steps, machines, resources",
  sql: `
    CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      provider_name text NOT NULL,
      service_type text NOT NULL,
      provider_class text NOT NULL,
      driver text,
      region text,
      config_sealed text NOT NULL,
      state text NOT NULL,
      created timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE TABLE executions (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES sessions(id),
      tool_id text NOT NULL,
      workload_id text NOT NULL,
      test jsonb NOT NULL,
      state text NOT NULL,
      created timestamptz NOT NULL,
      seq bigserial,
      exec_env jsonb NOT NULL DEFAULT '{"vms": []}',
      metrics jsonb NOT NULL DEFAULT '[]'
    );
    CREATE INDEX executions_session ON executions(session_id, seq);
    CREATE TABLE steps (
      execution_id uuid NOT NULL REFERENCES executions(id),
      step text NOT NULL,
      attempt integer NOT NULL,
      state text NOT NULL,
      started timestamptz NOT NULL,
      duration double precision,
      exit_code integer,
      error text,
      log_file text NOT NULL,
      metrics jsonb,
      PRIMARY KEY (execution_id, step, attempt)
    );
    CREATE TABLE machines (
      session_id uuid NOT NULL REFERENCES sessions(id),
      id text NOT NULL,
      ip text NOT NULL,
      platform text NOT NULL,
      host_key text,
      facts jsonb,
      PRIMARY KEY (session_id, id)
    );
    CREATE TABLE resources (
      seq bigserial PRIMARY KEY,
      session_id uuid NOT NULL,
      provider_name text NOT NULL,
      kind text NOT NULL,
      resource_id text NOT NULL,
      meta_sealed text NOT NULL,
      created timestamptz NOT NULL,
      destroyed_at timestamptz,
      UNIQUE (session_id, kind, resource_id)
    );
  `,
};
