import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 12,
  name: "telemetry: what each machine's sampler saw while a run step ran, and whether an execution samples",
  // One row per part of an attempt (machine, role, repetition), its samples as one array: a
  // part's samples are written once, when it has ended, and read whole. executions.telemetry
  // NULL is on (the default, and what rows from before it had).
  sql: `
    ALTER TABLE executions ADD COLUMN telemetry boolean;
    CREATE TABLE step_telemetry (
      execution_id uuid NOT NULL REFERENCES executions(id),
      step text NOT NULL,
      attempt integer NOT NULL,
      machine_id text NOT NULL,
      role text NOT NULL DEFAULT '',
      repetition integer NOT NULL,
      cpus integer NOT NULL,
      samples jsonb NOT NULL,
      PRIMARY KEY (execution_id, step, attempt, machine_id, role, repetition)
    );
  `,
};
