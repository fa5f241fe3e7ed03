import type { Db } from "./db.js";

/**
 * Forward-only migrations, applied in order, each once. The same SQL runs on PGlite and
 * PostgreSQL, so keep to what both accept. Never edit a released entry: add one.
 */
export const MIGRATIONS: ReadonlyArray<{ id: number; name: string; sql: string }> = [
  {
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
  },
  {
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
  },
  {
    id: 3,
    name: "the workload parameter values of each execution",
    // Executions from before parameters ran their workloads as the defaults now say: '{}' claims no values for them.
    sql: `
      ALTER TABLE executions ADD COLUMN params jsonb NOT NULL DEFAULT '{}';
    `,
  },
  {
    id: 4,
    name: "repeated runs: the plan of each execution, and the repetition a step's part is under way in",
    // NULL: the run measures once, as every run did before.
    sql: `
      ALTER TABLE executions ADD COLUMN repetitions jsonb;
      ALTER TABLE steps ADD COLUMN repetition integer;
    `,
  },
  {
    id: 5,
    name: "machine roles: which role's part of a step is under way on its machine",
    // NULL: the workload has no roles, as every workload had before.
    sql: `
      ALTER TABLE steps ADD COLUMN role text;
    `,
  },
  {
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
  },
  {
    id: 7,
    name: "plan runs: each run's state and driver's lease, and its cells",
    // The ids of a run's sessions and of its cells' executions are given here, before they are
    // made: a driver that takes over makes each at most once.
    sql: `
      CREATE TABLE plan_runs (
        id uuid PRIMARY KEY,
        plan_id uuid NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
        seq bigserial UNIQUE,
        state text NOT NULL,
        created timestamptz NOT NULL,
        started timestamptz,
        ended timestamptz,
        sessions jsonb NOT NULL,
        owner text,
        lease_until timestamptz
      );
      CREATE INDEX plan_runs_plan ON plan_runs(plan_id, seq);
      CREATE INDEX plan_runs_active ON plan_runs(state) WHERE state IN ('pending', 'running', 'cancelling');
      CREATE TABLE plan_run_cells (
        run_id uuid NOT NULL REFERENCES plan_runs(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        target text NOT NULL,
        benchmark integer NOT NULL,
        cell integer NOT NULL,
        tool text NOT NULL,
        workload text NOT NULL,
        params jsonb NOT NULL,
        state text NOT NULL,
        execution_id uuid NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        PRIMARY KEY (run_id, seq)
      );
    `,
  },
  {
    id: 8,
    name: "step cancels: a cancel request on a running step, which its follower reads as it renews its lease",
    // NULL: nobody asked to cancel the step, as nobody could before.
    sql: `
      ALTER TABLE steps ADD COLUMN cancel_requested text;
    `,
  },
  {
    id: 9,
    name: "schedules: a plan's cron and its next firing; a run's trigger and the tick it stands for",
    // next_run_at is the schedulers' one shared clock hand: whoever moves it from the value it
    // read (a conditional UPDATE) fires the tick. The unique index is the second guard: one run
    // per tick of a plan, however many servers share the database.
    sql: `
      ALTER TABLE plans ADD COLUMN schedule jsonb, ADD COLUMN schedule_paused boolean NOT NULL DEFAULT false, ADD COLUMN next_run_at timestamptz;
      ALTER TABLE plan_runs ADD COLUMN trigger text NOT NULL DEFAULT 'api', ADD COLUMN scheduled_for timestamptz;
      CREATE UNIQUE INDEX plan_runs_tick ON plan_runs(plan_id, scheduled_for) WHERE scheduled_for IS NOT NULL;
      CREATE INDEX plans_due ON plans(next_run_at) WHERE schedule IS NOT NULL AND NOT schedule_paused;
    `,
  },
];

/** Applies pending migrations; concurrent servers on one PostgreSQL serialize on a lock. */
export async function migrate(db: Db): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(4242001)");
    await tx.query("CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await tx.query<{ id: number }>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue;
      for (const statement of m.sql
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (id, name) VALUES ($1, $2)", [m.id, m.name]);
      applied.push(m.id);
    }
    return applied;
  });
}
