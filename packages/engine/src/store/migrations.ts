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
  {
    id: 10,
    name: "series: each metric of each benchmark on each target over time, its points and the changes found in them",
    // `points` is the last point's seq: a run's end bumps it as it appends (the series' row is the
    // lock that orders two ends of one series) and reads nothing else of the series.
    sql: `
      CREATE TABLE series (
        id uuid PRIMARY KEY,
        seq bigserial UNIQUE,
        key text NOT NULL UNIQUE,
        tool text NOT NULL,
        workload text NOT NULL,
        params jsonb NOT NULL,
        metric text NOT NULL,
        tags jsonb NOT NULL,
        provider text NOT NULL,
        service_type text NOT NULL,
        unit text NOT NULL,
        better text,
        points integer NOT NULL DEFAULT 0,
        first_at timestamptz,
        last_at timestamptz,
        baseline jsonb,
        created timestamptz NOT NULL
      );
      CREATE TABLE series_points (
        series_id uuid NOT NULL REFERENCES series(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        execution_id uuid NOT NULL,
        plan_run_id uuid,
        at timestamptz NOT NULL,
        n integer NOT NULL,
        mean double precision NOT NULL,
        ci_low double precision,
        ci_high double precision,
        facts jsonb NOT NULL DEFAULT '{}',
        checked boolean NOT NULL DEFAULT false,
        PRIMARY KEY (series_id, seq),
        UNIQUE (series_id, execution_id)
      );
      CREATE INDEX series_points_unchecked ON series_points(series_id, seq) WHERE NOT checked;
      CREATE TABLE series_changes (
        id uuid PRIMARY KEY,
        seq bigserial UNIQUE,
        series_id uuid NOT NULL REFERENCES series(id) ON DELETE CASCADE,
        point_seq integer NOT NULL,
        at timestamptz NOT NULL,
        execution_id uuid NOT NULL,
        direction text NOT NULL,
        size double precision NOT NULL,
        size_ci_low double precision,
        size_ci_high double precision,
        p_value double precision NOT NULL,
        before jsonb NOT NULL,
        after jsonb NOT NULL,
        facts_changed jsonb NOT NULL,
        state text NOT NULL DEFAULT 'open',
        detected timestamptz NOT NULL,
        UNIQUE (series_id, point_seq)
      );
      CREATE INDEX series_changes_state ON series_changes(state, seq);
      CREATE INDEX plan_run_cells_execution ON plan_run_cells(execution_id);
    `,
  },
  {
    id: 11,
    name: "webhooks: where alerts go, and each event's delivery to each of them",
    // A delivery is one event for one webhook: UNIQUE (webhook_id, event_key) makes two servers
    // that enqueue the same event make one. It is sent by the deliverer holding its lease.
    sql: `
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY,
        seq bigserial UNIQUE,
        url text NOT NULL,
        secret_sealed text NOT NULL,
        events text[] NOT NULL,
        plan_id uuid REFERENCES plans(id) ON DELETE CASCADE,
        format text NOT NULL,
        created timestamptz NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        seq bigserial UNIQUE,
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event text NOT NULL,
        event_key text NOT NULL,
        payload jsonb NOT NULL,
        state text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        owner text,
        lease_until timestamptz,
        last_status integer,
        last_error text,
        created timestamptz NOT NULL,
        delivered_at timestamptz,
        UNIQUE (webhook_id, event_key)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at) WHERE state = 'pending';
      CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, seq);
    `,
  },
  {
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
  },
  {
    id: 13,
    name: "steps.provenance: what produced a run attempt's figures",
    // Written once a run attempt has its machines, before it measures; null for prepares and
    // for runs from before provenance was recorded.
    sql: `
      ALTER TABLE steps ADD COLUMN provenance jsonb;
    `,
  },
  {
    id: 14,
    name: "series points: their machines' facts kept once, and a series' points read from its primary key alone",
    // A series' points are appended over months between other series' points, so each sits on
    // its own heap page: reading 1,000 of them read 1,000 pages. The primary key now carries
    // every column a reader asks for (an index-only scan reads a few leaf pages), and the facts,
    // the same for most points, are a reference to one row of series_facts instead of a copy.
    // The points are copied into a new table (in series order) rather than updated in place:
    // an UPDATE of every row would leave the table twice its size.
    sql: `
      CREATE TABLE series_facts (
        id bigserial PRIMARY KEY,
        digest bytea NOT NULL UNIQUE,
        facts jsonb NOT NULL
      );
      INSERT INTO series_facts (digest, facts)
        SELECT DISTINCT ON (d) d, facts FROM (SELECT sha256(convert_to(facts::text, 'UTF8')) AS d, facts FROM series_points) p ORDER BY d;
      ALTER TABLE series_points RENAME TO series_points_before_14;
      CREATE TABLE series_points (
        series_id uuid NOT NULL REFERENCES series(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        execution_id uuid NOT NULL,
        plan_run_id uuid,
        at timestamptz NOT NULL,
        n integer NOT NULL,
        mean double precision NOT NULL,
        ci_low double precision,
        ci_high double precision,
        facts_id bigint NOT NULL REFERENCES series_facts(id),
        checked boolean NOT NULL DEFAULT false
      );
      INSERT INTO series_points (series_id, seq, execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id, checked)
        SELECT p.series_id, p.seq, p.execution_id, p.plan_run_id, p.at, p.n, p.mean, p.ci_low, p.ci_high, f.id, p.checked
          FROM series_points_before_14 p JOIN series_facts f ON f.digest = sha256(convert_to(p.facts::text, 'UTF8'))
         ORDER BY p.series_id, p.seq;
      DROP TABLE series_points_before_14;
      ALTER TABLE series_points ADD PRIMARY KEY (series_id, seq) INCLUDE (execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id);
      ALTER TABLE series_points ADD UNIQUE (series_id, execution_id);
      CREATE INDEX series_points_unchecked ON series_points(series_id, seq) WHERE NOT checked;
    `,
  },
  {
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
  },
  {
    id: 16,
    name: "audit log of state-changing requests; the rate limit's request buckets",
    // One row per state-changing request, written when its answer has gone: who, which operation,
    // the path with its ids, the outcome and the request id; never a body or a header. Lists read
    // it by seq (its order of writing) and filter by principal, operation, time and outcome.
    // request_buckets holds one token bucket per principal, shared by every server on the
    // database: one UPDATE per request, timed by the database's clock; UNLOGGED, as a bucket lost
    // in a crash only refills early, and a write without the WAL's flush is what one per request affords.
    // Quotas count a principal's sessions by their owner (migration 15).
    sql: `
      CREATE TABLE audit_log (
        seq bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        principal text NOT NULL,
        operation text,
        method text NOT NULL,
        path text NOT NULL,
        status integer NOT NULL,
        code text,
        request_id text NOT NULL
      );
      CREATE INDEX audit_log_principal ON audit_log(principal, seq);
      CREATE INDEX audit_log_at ON audit_log(at);
      CREATE INDEX audit_log_request ON audit_log(request_id);
      CREATE UNLOGGED TABLE request_buckets (
        principal text PRIMARY KEY,
        tokens double precision NOT NULL,
        at timestamptz NOT NULL,
        allowed boolean NOT NULL
      );
    `,
  },
  {
    id: 17,
    name: "who started each plan run, and who made each plan; a principal's series found from its executions",
    // A run's sessions are its starter's, shared with every principal (a plan is a team's
    // campaign): the starter is the admin who asked, or for a scheduled run the plan's maker.
    // Runs and plans from before were the bootstrap admin's (NULL plans: nobody recorded).
    // A non-admin's series are those of the points of the executions it may read: found from
    // its executions (by owner) to their points (by execution), not by looking in every series'
    // points (seconds on a million points without them; an execution's points share one entry,
    // about 10 bytes a point).
    sql: `
      ALTER TABLE plan_runs ADD COLUMN started_by text NOT NULL DEFAULT 'bootstrap';
      ALTER TABLE plans ADD COLUMN created_by text;
      CREATE INDEX executions_owner ON executions(owner);
      CREATE INDEX series_points_execution ON series_points(execution_id);
    `,
  },
  {
    id: 18,
    name: "steps.place: the host and data dir of a step's first driver, where its parts on the engine's own host run",
    // A part on the engine's own host (the local provider) runs in a dir below its driver's data
    // dir: a driver that takes the step over elsewhere (another host, another data dir) cannot
    // reach it, and must not start it again there. NULL: rows from before, as they were.
    sql: `
      ALTER TABLE steps ADD COLUMN place text;
    `,
  },
  {
    id: 19,
    name: "a plan's ticks skipped while its previous run went on",
    // Counted on the plan's row (a skipped tick starts no run to record it by), with the latest.
    sql: `
      ALTER TABLE plans ADD COLUMN schedule_skipped integer NOT NULL DEFAULT 0;
      ALTER TABLE plans ADD COLUMN schedule_last_skipped timestamptz;
    `,
  },
  {
    id: 20,
    name: "a change's revision: told again when a refinement moves its point or its size",
    // 1 as first found; each refinement that moves the change's point, flips its direction or
    // moves its size by REVISED_SIZE or more adds one, and is told as the same change again.
    sql: `ALTER TABLE series_changes ADD COLUMN revision integer NOT NULL DEFAULT 1`,
  },
];

/**
 * Applies pending migrations; concurrent servers on one PostgreSQL serialize on a lock.
 * `before` stops at that migration, as a server of that time would have (tests of a migration).
 */
export async function migrate(db: Db, options: { before?: number } = {}): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(4242001)");
    await tx.query("CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await tx.query<{ id: number }>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.id === options.before) break;
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
