// What cancelling a large plan run costs, and whether the server keeps answering meanwhile:
// a run of `--cells` executions (10 local targets, idle5 sleeping a minute, one cell at a time,
// so that nearly all are still pending: cheap to make) is cancelled once it runs; the wall time
// from the DELETE's 202 to the run's `cancelled`, and the slowest `GET /healthz` asked every
// 100 ms from the DELETE to the end. On the embedded PGlite unless told otherwise.
// Targets (issue 34, point 4): the cancel ends in < 60 s; /healthz answers in < 1 s throughout.
//
// Usage: node bench/cancel-large-run.mjs [--cells=10000] [--reference-cells=16] [--database=pglite|postgres]
import { request } from "node:http";
import { failure, figure } from "./harness/figures.mjs";
import { httpRequest } from "./harness/http.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startServer } from "./harness/server-process.mjs";
import { sleep } from "./harness/timing.mjs";

const opts = flags({ cells: 10_000, "reference-cells": 16, database: "pglite" });
const TARGETS = 10;

await main(
  async (defer) => {
    const databaseUrl = opts.database === "postgres" ? await postgresSchema(defer) : undefined;
    const server = await startServer(defer, { dataDir: tempDir(defer, "data"), configDir: benchConfigDir(defer), databaseUrl });
    console.log(`== a run of ${opts.cells} cells cancelled, ${databaseUrl ? "PostgreSQL" : "PGlite"}`);
    const reference = await cancelRun(server, opts["reference-cells"]);
    console.log(
      `reference: ${opts["reference-cells"]} cells cancelled in ${reference.seconds.toFixed(1)} s, /healthz at worst ${reference.healthzMs.toFixed(0)} ms`,
    );
    let large;
    try {
      large = await cancelRun(server, opts.cells);
      console.log(`${opts.cells} cells cancelled in ${large.seconds.toFixed(1)} s, /healthz at worst ${large.healthzMs.toFixed(0)} ms`);
    } catch (e) {
      failure(`cancel of a ${opts.cells}-cell run`, e);
      return;
    }
    figure({
      measure: `cancel of a ${opts.cells}-cell plan run, 202 to cancelled (wall)`,
      now: large.seconds,
      ref: reference.seconds,
      unit: "s",
      refLabel: `the same of a ${opts["reference-cells"]}-cell run`,
      target: "< 60 s",
      ok: (_ratio, s) => s < 60,
    });
    figure({
      measure: `slowest GET /healthz (every 100 ms) while it is cancelled`,
      now: large.healthzMs,
      ref: reference.healthzMs,
      unit: "ms",
      refLabel: `the same while the ${opts["reference-cells"]}-cell run is`,
      target: "< 1 s",
      ok: (_ratio, ms) => ms < 1000,
    });
  },
  { limitSeconds: 1800 },
);

/** Makes a plan of `cells` executions, starts a run, cancels it once running; the cancel's wall time and the slowest /healthz meanwhile. */
async function cancelRun(server, cells) {
  const { call } = server;
  const targets = Math.min(TARGETS, cells);
  const perTarget = Math.ceil(cells / targets);
  const plan = await call("POST", "/plans/", {
    targets: Array.from({ length: targets }, (_, i) => ({ label: `t${i}`, provider: "local", service: "default" })),
    // Distinct values (a list's values make the cells), each a minute or more: the running cell is stopped, not waited for.
    benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: Array.from({ length: perTarget }, (_, i) => 60 + (i * 30) / perTarget) } }],
    concurrency: { per_target: 1, overall: 1 },
  });
  const runPath = `/plans/${plan.id}/runs/${(await call("POST", `/plans/${plan.id}/runs/`)).id}`;
  // Only its state: the run's 10,000 cells are not what is measured.
  const runState = async () => {
    const res = await httpRequest("GET", `${server.api}${runPath}`, { headers: { "X-Fields": "state" } });
    if (res.status !== 200) throw new Error(`GET ${runPath}: ${res.status} ${res.body.toString().slice(0, 300)}`);
    return JSON.parse(res.body.toString()).state;
  };
  for (let i = 0; (await runState()) !== "running"; i++) {
    if (i > 600) throw new Error("the run never began");
    await sleep(100);
  }
  let worst = 0;
  let probing = true;
  const slow = [];
  let t0 = performance.now();
  // Its failure is thrown once the cancel has ended (not left unhandled meanwhile).
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      const res = await httpRequest("GET", `${server.url}/healthz`, { fresh: true }).catch((e) => ({ status: 0, error: e }));
      if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
      const ms = performance.now() - t;
      worst = Math.max(worst, ms);
      if (ms > 500) slow.push(`${((t - t0) / 1000).toFixed(1)} s: ${ms.toFixed(0)} ms`);
      await sleep(100);
    }
  })().then(
    () => undefined,
    (e) => e,
  );
  // Its end is told on the event stream: polling the run would read its thousands of cells each time.
  const ended = runEnded(server, runPath.split("/").at(-1));
  t0 = performance.now();
  try {
    await call("DELETE", runPath);
    const state = await ended;
    if (state !== "cancelled") throw new Error(`the run ended ${state}`);
  } finally {
    probing = false;
  }
  const seconds = (performance.now() - t0) / 1000;
  const probeFailed = await probe;
  if (slow.length) console.log(`/healthz slower than 500 ms, after the DELETE: ${slow.join(", ")}`);
  if (probeFailed) throw probeFailed;
  await call("DELETE", `/plans/${plan.id}`);
  return { seconds, healthzMs: worst };
}

/** The state the run ends in, from the event stream (`plan_run.ended`); rejects after 15 minutes. */
function runEnded(server, runId) {
  return new Promise((resolve, reject) => {
    const req = request(`${server.api}/events?types=plan_run.ended`, { headers: { Accept: "text/event-stream" } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error("still cancelling after 15 minutes"));
    }, 15 * 60_000);
    req.on("error", reject);
    req.on("response", (res) => {
      let buffered = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          if (!line.startsWith("data:")) continue;
          const event = JSON.parse(line.slice(5));
          const data = event.data ?? event;
          if (data.run_id === runId) {
            clearTimeout(timer);
            req.destroy();
            resolve(data.state);
          }
        }
      });
    });
    req.end();
  });
}
