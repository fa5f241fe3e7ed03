// Read throughput of the API against a bare Express 5 route serving the very same bytes.
//
// - GET /executions/{id} of a run execution (steps and metrics in it), 16 clients at once:
//   req/s and p50 vs the bare route. Target >= 0.5x the bare req/s.
// - GET /sessions/ with 10x5, 50x5 and 100x5 sessions x executions: the same, target >= 0.25x
//   at 50x5; and the time per returned execution at each size, which stays flat when the cost
//   grows linearly with what the answer holds.
// Each body is captured from the real server once, then served by bench/bare-express.mjs;
// both are child processes, loaded from this one in turn.
//
// Usage: node bench/api-throughput.mjs [--seconds=3] [--warmup=2] [--concurrency=16] [--sizes=10,50,100]
//        [--per-session=5] [--run-per-session=0] [--database=pglite|postgres]
//   --run-per-session=N prepares and runs N executions of each session (bodies with steps
//   and metrics; slower to set up).
import { figure } from "./harness/figures.mjs";
import { LOCAL_SESSION } from "./harness/hosts.mjs";
import { httpRequest, loadTest } from "./harness/http.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startBare, startServer } from "./harness/server-process.mjs";
import { mapLimit } from "./harness/timing.mjs";

const opts = flags({ seconds: 3, warmup: 2, concurrency: 16, sizes: "10,50,100", perSession: 5, runPerSession: 0, database: "pglite" });
const sizes = opts.sizes.split(",").map(Number);
const REPORTED_SIZE = 50;

await main(async (defer) => {
  const databaseUrl = opts.database === "postgres" ? await postgresSchema(defer) : undefined;
  const db = databaseUrl ? "PostgreSQL" : "PGlite";
  const server = await startServer(defer, { dataDir: tempDir(defer, "data"), configDir: benchConfigDir(defer), databaseUrl });
  const { call } = server;
  // The warm-up lets V8 compile both servers' request paths (ours runs far more code than the
  // bare route, so half a second measured part of its start) before anything is counted.
  const load = { seconds: opts.seconds, warmupSeconds: opts.warmup, concurrency: opts.concurrency };

  /** Loads the real path, then a bare Express route serving its bytes; returns both results. */
  const versusBare = async (path) => {
    const real = await httpRequest("GET", server.api + path);
    if (real.status !== 200) throw new Error(`GET ${path}: ${real.status}`);
    const now = await loadTest(server.api + path, load);
    const bare = await startBare(defer, { body: real.body, contentType: real.headers["content-type"] });
    const ref = await loadTest(bare.url + "/api/v1" + path, load);
    await bare.stop();
    console.log(
      `GET ${path} (${real.body.length} bytes): ${now.rps.toFixed(0)} req/s, p50 ${now.p50.toFixed(2)} ms, p99 ${now.p99.toFixed(2)} ms;` +
        ` bare ${ref.rps.toFixed(0)} req/s, p50 ${ref.p50.toFixed(2)} ms, p99 ${ref.p99.toFixed(2)} ms`,
    );
    return { now, ref, bytes: real.body.length };
  };

  // ---- GET /executions/{id}
  const first = await call("POST", "/sessions/", LOCAL_SESSION);
  const exec = await call("POST", `/sessions/${first.id}/executions/`, { tool: "idle", workload: "idle0" });
  await call("POST", `/executions/${exec.id}/prepare`);
  await call("POST", `/executions/${exec.id}/run`);
  const one = await versusBare(`/executions/${exec.id}`);
  figure({
    measure: `GET /executions/{id} req/s, ${opts.concurrency} at once, ${db}`,
    now: one.now.rps,
    ref: one.ref.rps,
    unit: "req/s",
    refLabel: "bare Express, same bytes",
    target: ">= 0.6x",
    ok: (r) => r >= 0.6,
  });
  // With 16 clients at once, p50 is about 16 / throughput: its ratio is the inverse of the one
  // above, so it carries no target of its own (the issue sets one on throughput).
  figure({ measure: `GET /executions/{id} p50, ${db}`, now: one.now.p50, ref: one.ref.p50, unit: "ms", refLabel: "bare Express" });
  // A deleted session leaves GET /sessions/, so the lists below hold only their own sessions.
  await call("DELETE", `/sessions/${first.id}`);

  // ---- GET /sessions/ at growing sizes
  // Not deleted at the end: they are local sessions in the throwaway data dir, which goes with the server.
  let sessions = 0;
  const perExecution = [];
  for (const size of sizes) {
    const added = await mapLimit(Array.from({ length: size - sessions }), 8, async () => {
      const s = await call("POST", "/sessions/", LOCAL_SESSION);
      sessions++;
      for (let i = 0; i < opts.perSession; i++) {
        const e = await call("POST", `/sessions/${s.id}/executions/`, { tool: "idle", workload: "idle0" });
        if (i < opts.runPerSession) {
          await call("POST", `/executions/${e.id}/prepare`);
          await call("POST", `/executions/${e.id}/run`);
        }
      }
    });
    const failed = added.find((r) => !r.ok);
    if (failed) throw failed.error;
    const executions = size * opts.perSession;
    const label = `${size}x${opts.perSession}`;
    const list = await versusBare("/sessions/");
    // One server process answers one request at a time: 1/throughput is its time per request.
    const nowPer = 1000 / list.now.rps / executions;
    const refPer = 1000 / list.ref.rps / executions;
    perExecution.push({ executions, ms: 1000 / list.now.rps });
    figure({
      measure: `GET /sessions/ ${label} req/s, ${db}`,
      now: list.now.rps,
      ref: list.ref.rps,
      unit: "req/s",
      refLabel: "bare Express, same bytes",
      ...(size === REPORTED_SIZE ? { target: ">= 0.25x", ok: (r) => r >= 0.25 } : {}),
    });
    figure({ measure: `GET /sessions/ ${label} p50, ${db}`, now: list.now.p50, ref: list.ref.p50, unit: "ms", refLabel: "bare Express" });
    figure({
      measure: `GET /sessions/ ${label} time per returned execution`,
      now: nowPer * 1000,
      ref: refPer * 1000,
      unit: "us",
      refLabel: "bare Express",
    });
  }
  // Linear growth: the largest list costs what a straight line through the two smallest predicts.
  // A cost that stays flat is within linear: noise can tilt that line downwards (the smaller
  // list measured slower), so the largest is held to no less than the smaller ones measured.
  if (perExecution.length >= 3) {
    const [a, b] = perExecution;
    const last = perExecution.at(-1);
    const line = a.ms + ((b.ms - a.ms) * (last.executions - a.executions)) / (b.executions - a.executions);
    const predicted = Math.max(line, a.ms, b.ms);
    figure({
      measure: `GET /sessions/ time per request at ${last.executions} executions vs linear fit of ${a.executions}, ${b.executions}`,
      now: last.ms,
      ref: predicted,
      unit: "ms",
      refLabel: "linear prediction",
      target: "<= 1.25x (linear)",
      ok: (r) => r <= 1.25,
    });
  }
});
