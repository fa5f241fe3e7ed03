// Series over a big store (issue 25). A PostgreSQL schema is filled by SQL with --executions
// completed executions of 10 metrics each (1,000,000 executions and 10,000,000 metric rows by
// default), each with its prepare and run steps, its machine's facts and its points: one per
// metric, in 10 series per target, over --targets targets (so each series holds
// executions / targets points: 1,000 by default). Then it prints:
// - a series' points answered by the real server (`GET /series/{id}/points`, every point of a
//   1,000-point series), p50 over --runs series picked at random;
// - a new point appended to a 1,000-point series and checked for changes (the statement a run's
//   end runs, then the checker's read of the window and its E-divisive test), p50 over --runs;
// - the database's size (the schema's tables and indexes) per metric row.
// The fill takes minutes (about 10 on a 2-core machine). --keep keeps the schema and prints
// its URL; --database-url reuses a schema a previous --keep left.
//
// Usage: node bench/series-store.mjs [--executions=1000000] [--targets=1000] [--runs=50] [--keep] [--database-url=...]
import { randomUUID } from "node:crypto";
import { ChangeChecker, migrate, openDb, storeWithEvents } from "@benchwright/engine";
import { createTestSchema } from "@benchwright/testing";
import { figure } from "./harness/figures.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, startServer } from "./harness/server-process.mjs";
import { median, timeEach } from "./harness/timing.mjs";

const opts = flags({ executions: 1_000_000, targets: 1000, runs: 50, keep: false, databaseUrl: "" });
const TARGET_MS = 50;
const METRICS = 10;
const FACTS = {
  kernel: "6.1.0-18-amd64",
  cpu_model: "Intel(R) Xeon(R) CPU",
  microcode: "0xd0003a5",
  os_release: "Debian GNU/Linux 12 (bookworm)",
  tool_version: "sysbench 1.0.20+ds-6",
};

await main(
  async (defer) => {
    let url = opts.databaseUrl;
    if (!url) {
      const schema = await createTestSchema();
      url = schema.url;
      if (opts.keep) console.log(`the filled schema stays: --database-url='${url}'`);
      else defer(() => schema.drop());
    }
    const db = await openDb({ databaseUrl: url });
    defer(() => db.close());
    await migrate(db);
    const [{ points }] = await db.query("SELECT count(*)::bigint AS points FROM series_points");
    if (Number(points) === 0) await fill(db);
    const metricRows = Number((await db.query("SELECT sum(jsonb_array_length(metrics))::bigint AS n FROM executions"))[0].n);
    const seriesIds = (await db.query("SELECT id FROM series ORDER BY seq")).map((r) => r.id);
    const pick = () => seriesIds[Math.floor(Math.random() * seriesIds.length)];
    console.log(`${metricRows.toLocaleString("en")} metric rows, ${seriesIds.length.toLocaleString("en")} series`);

    const server = await startServer(defer, { dataDir: tempDir(defer, "data"), configDir: benchConfigDir(defer), databaseUrl: url });
    const getPoints = async (id) => {
      const res = await fetch(`${server.api}/series/${id}/points`);
      const body = await res.json();
      if (res.status !== 200 || body.length !== opts.executions / opts.targets)
        throw new Error(`GET /series/${id}/points: ${res.status}, ${body.length} points`);
    };
    await timeEach(5, () => getPoints(pick()));
    figure({
      measure: `a series' points through the API (${(opts.executions / opts.targets).toLocaleString("en")} points, p50)`,
      now: median(await timeEach(opts.runs, () => getPoints(pick()))),
      unit: "ms",
      target: `< ${TARGET_MS} ms`,
      ok: (_ratio, now) => now < TARGET_MS,
    });

    const store = storeWithEvents(db);
    const checker = new ChangeChecker({ store, log: () => {} });
    const appendAndCheck = async () => {
      const [s] = await db.query(
        `SELECT s.id, s.metric, s.tags, s.unit, s.better, p.execution_id FROM series s JOIN series_points p ON p.series_id = s.id AND p.seq = 1 WHERE s.id = $1`,
        [pick()],
      );
      // A new execution of the series' target and benchmark, as a run's end finds it.
      const id = randomUUID();
      await db.query(
        `INSERT INTO executions (id, session_id, tool_id, workload_id, params, test, state, created, exec_env, metrics)
           SELECT $1, session_id, tool_id, workload_id, params, test, state, now(), exec_env, metrics FROM executions WHERE id = $2`,
        [id, s.execution_id],
      );
      const figures = [
        { metric: s.metric, tags: s.tags, unit: s.unit, better: s.better, n: 3, mean: 100 * (1 + 0.03 * Math.random()), ci_low: 97, ci_high: 103 },
      ];
      const started = performance.now();
      await store.series.recordRunPoints(db, id, new Date(), figures);
      const [{ seq }] = await db.query("SELECT max(seq) AS seq FROM series_points WHERE series_id = $1", [s.id]);
      await checker.checkSeries(s.id, seq);
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await appendAndCheck();
    const checks = [];
    for (let i = 0; i < opts.runs; i++) checks.push(await appendAndCheck());
    figure({
      measure: `a new point appended to a ${(opts.executions / opts.targets).toLocaleString("en")}-point series and checked (p50)`,
      now: median(checks),
      unit: "ms",
      target: `< ${TARGET_MS} ms`,
      ok: (_ratio, now) => now < TARGET_MS,
    });

    const [{ bytes }] = await db.query(
      `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')`,
    );
    console.log(`the schema holds ${(Number(bytes) / 2 ** 30).toFixed(2)} GiB`);
    figure({ measure: "the database's size per metric row (tables and indexes)", now: Number(bytes) / metricRows, unit: "B", digits: 0 });
  },
  { limitSeconds: 3 * 3600 },
);

/** Fills the store by SQL, in batches of 100,000 executions (each its own transaction). */
async function fill(db) {
  const perTarget = Math.floor(opts.executions / opts.targets);
  const started = performance.now();
  await db.query(
    `INSERT INTO sessions (id, provider_name, service_type, provider_class, driver, region, config_sealed, state, created, deleted_at)
       SELECT md5('session' || t)::uuid, 'bench-' || (t % 10), 'type-' || (t / 10), 'existing-vm', NULL, NULL, '', 'deleted', now(), now()
         FROM generate_series(0, $1 - 1) t`,
    [opts.targets],
  );
  const metrics = Array.from(
    { length: METRICS },
    (_, m) =>
      `jsonb_build_object('name', 'metric_${m}', 'value', 100 + random() * 3, 'unit', 'ops/s', 'better', 'higher', 'tags', jsonb_build_object('threads', '2'), 'vm', 'vm-1')`,
  ).join(", ");
  await db.query(
    `INSERT INTO series (id, key, tool, workload, params, metric, tags, provider, service_type, unit, better, points, first_at, last_at, created)
       SELECT md5('series' || t || '/' || m)::uuid, md5('key' || t || '/' || m), 'sysbench', 'cpu_10000', '{"threads": "2", "events": 10000}',
              'metric_' || m, '{"threads": "2"}', 'bench-' || (t % 10), 'type-' || (t / 10), 'ops/s', 'higher', $2, now() - interval '1000 days', now(), now()
         FROM generate_series(0, $1 - 1) t, generate_series(0, ${METRICS - 1}) m`,
    [opts.targets, perTarget],
  );
  // Every point's machine had the same facts: one row, as a run's end keeps it.
  const [{ id: factsId }] = await db.query(
    `INSERT INTO series_facts (digest, facts) VALUES (sha256(convert_to($1::jsonb::text, 'UTF8')), $1::jsonb) RETURNING id`,
    [JSON.stringify(FACTS)],
  );
  const batch = 100_000;
  for (let from = 0; from < opts.executions; from += batch) {
    const to = Math.min(opts.executions, from + batch) - 1;
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO executions (id, session_id, tool_id, workload_id, params, test, state, created, exec_env, metrics)
           SELECT md5('exec' || i)::uuid, md5('session' || (i % $3))::uuid, 'sysbench', 'cpu_10000', '{"threads": "2", "events": 10000}',
                  '{"tool_id": "sysbench", "workload_id": "cpu_10000", "tool_name": "sysbench", "workload_name": "CPU, 10000 events"}',
                  'completed', now() - (i || ' seconds')::interval,
                  jsonb_build_object('vms', jsonb_build_array(jsonb_build_object('id', 'vm-1', 'ip', '192.0.2.10', 'platform', 'debian_12', 'facts', $4::jsonb))),
                  jsonb_build_array(${metrics})
             FROM generate_series($1::int, $2::int) i`,
        [from, to, opts.targets, JSON.stringify(FACTS)],
      );
      await tx.query(
        `INSERT INTO steps (execution_id, step, attempt, state, started, duration, exit_code, error, log_file, metrics)
           SELECT e.id, s.step, 1, 'succeeded', e.created, 3.2, 0, NULL, s.step || '-1.log', CASE WHEN s.step = 'run' THEN e.metrics END
             FROM executions e, (VALUES ('prepare'), ('run')) s(step)
            WHERE e.id IN (SELECT md5('exec' || i)::uuid FROM generate_series($1::int, $2::int) i)`,
        [from, to],
      );
      await tx.query(
        `INSERT INTO series_points (series_id, seq, execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id, checked)
           SELECT md5('series' || (i % $3) || '/' || m)::uuid, i / $3 + 1, md5('exec' || i)::uuid, NULL, now() - (i || ' seconds')::interval,
                  3, 100 + random() * 3, 97, 103, $4::bigint, true
             FROM generate_series($1::int, $2::int) i, generate_series(0, ${METRICS - 1}) m`,
        [from, to, opts.targets, factsId],
      );
    });
    console.log(`filled ${(to + 1).toLocaleString("en")} executions in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  // What autovacuum does to a table that only grew (PostgreSQL 13+): statistics, and the
  // visibility map that lets a series' points be read from the primary key alone.
  await db.query("VACUUM ANALYZE");
}
