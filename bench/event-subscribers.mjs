// What open `/events` subscribers cost the rest of the API: the p50 of other requests
// (GET /executions/{id} and GET /sessions/, a few clients back to back) with no subscriber,
// then with 500 open `GET /api/v1/events` streams, while events are produced all along
// (sessions and executions created, idle0 prepared and run, sessions deleted). The server is
// `main.js` on the embedded PGlite unless told otherwise. Target: <= 2x the p50 without them.
// The subscribers are held by a worker thread of this process, so that reading their streams
// does not delay the timed requests' answers here. Also printed: the server's VmRSS, and that
// every subscriber was answered 200 and received events.
//
// Usage: node bench/event-subscribers.mjs [--subscribers=500] [--seconds=5] [--warmup=2] [--concurrency=2]
//        [--produce-ms=200] [--database=pglite|postgres]
//   --subscribers takes a comma-separated list (500,1000): each count is measured in turn.
import { request } from "node:http";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { figure } from "./harness/figures.mjs";
import { LOCAL_SESSION } from "./harness/hosts.mjs";
import { loadTest } from "./harness/http.mjs";
import { MiB, residentBytes } from "./harness/memory.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startServer } from "./harness/server-process.mjs";
import { mapLimit, sleep } from "./harness/timing.mjs";

if (isMainThread) await bench();
else holdSubscribers(workerData);

async function bench() {
  const opts = flags({ subscribers: "500", seconds: 5, warmup: 2, concurrency: 2, produceMs: 200, database: "pglite" });
  await main(async (defer) => {
    const databaseUrl = opts.database === "postgres" ? await postgresSchema(defer) : undefined;
    const db = databaseUrl ? "PostgreSQL" : "PGlite";
    const server = await startServer(defer, { dataDir: tempDir(defer, "data"), configDir: benchConfigDir(defer), databaseUrl });
    const { call } = server;

    // Something to read: a run execution, and a few sessions in the list.
    const session = await call("POST", "/sessions/", LOCAL_SESSION);
    const exec = await call("POST", `/sessions/${session.id}/executions/`, { tool: "idle", workload: "idle0" });
    await call("POST", `/executions/${exec.id}/prepare`);
    await call("POST", `/executions/${exec.id}/run`);
    for (let i = 0; i < 9; i++) await call("POST", "/sessions/", LOCAL_SESSION);

    const producer = produce(call, opts.produceMs);
    defer(() => producer.stop());
    const load = { seconds: opts.seconds, warmupSeconds: opts.warmup, concurrency: opts.concurrency };
    const paths = [`/executions/${exec.id}`, "/sessions/"];
    const measure = async () => {
      const out = {};
      for (const path of paths) out[path] = await loadTest(server.api + path, load);
      return out;
    };

    // One untimed pass first: the first path measured must not be the one that pays for the server's warming up.
    for (const path of paths) await loadTest(server.api + path, { ...load, seconds: opts.warmup, warmupSeconds: 0 });
    const baselineRounds = producer.rounds;
    const before = await measure();
    const rssBefore = residentBytes(server.pid);
    console.log(
      `no subscriber: ${paths.map((p) => `${p} p50 ${before[p].p50.toFixed(2)} ms (p99 ${before[p].p99.toFixed(2)})`).join(", ")}; ` +
        `RSS ${(rssBefore / MiB).toFixed(0)} MiB; ${producer.rounds - baselineRounds} production rounds meanwhile`,
    );

    for (const count of opts.subscribers.split(",").map(Number)) {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { api: server.api, count } });
      const stopWorker = () => worker.terminate();
      defer(stopWorker);
      const opened = await message(worker);
      if (opened.refused.length) throw new Error(`${opened.refused.length} of ${count} subscribers refused: ${opened.refused.slice(0, 3).join("; ")}`);
      const roundsBefore = producer.rounds;
      const during = await measure();
      const rssDuring = residentBytes(server.pid);
      worker.postMessage("stop");
      const held = await message(worker);
      await stopWorker();
      const rounds = producer.rounds - roundsBefore;
      const starved = held.events.filter((n) => n === 0).length;
      console.log(
        `${count} subscribers (opened in ${opened.ms.toFixed(0)} ms): ` +
          `${paths.map((p) => `${p} p50 ${during[p].p50.toFixed(2)} ms (p99 ${during[p].p99.toFixed(2)})`).join(", ")}; RSS ${(rssDuring / MiB).toFixed(0)} MiB; ` +
          `${rounds} production rounds meanwhile; events per subscriber min ${Math.min(...held.events)}, max ${Math.max(...held.events)}`,
      );
      if (rounds === 0) throw new Error("no event was produced while the subscribers were open");
      if (starved) throw new Error(`${starved} of ${count} subscribers received no event`);
      for (const path of paths) {
        const label = path.startsWith("/executions/") ? "/executions/{id}" : path;
        figure({
          measure: `GET ${label} p50 with ${count} /events subscribers, ${db}`,
          now: during[path].p50,
          ref: before[path].p50,
          unit: "ms",
          refLabel: "no subscriber",
          target: "<= 2x",
          ok: (r) => r <= 2,
        });
      }
      figure({
        measure: `server VmRSS with ${count} /events subscribers, ${db}`,
        now: rssDuring / MiB,
        ref: rssBefore / MiB,
        unit: "MiB",
        refLabel: "no subscriber",
      });
    }
    await producer.stop();
  });
}

/** Rounds of events, one every `everyMs` at most: a session, an execution prepared and run, every third session deleted. */
function produce(call, everyMs) {
  let stopped = false;
  let rounds = 0;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const s = await call("POST", "/sessions/", LOCAL_SESSION);
      const e = await call("POST", `/sessions/${s.id}/executions/`, { tool: "idle", workload: "idle0" });
      await call("POST", `/executions/${e.id}/prepare`);
      await call("POST", `/executions/${e.id}/run`);
      if (rounds % 3 === 0) await call("DELETE", `/sessions/${s.id}`);
      rounds++;
      await sleep(Math.max(0, everyMs - (performance.now() - started)));
    }
  })();
  return {
    get rounds() {
      return rounds;
    },
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

function message(worker) {
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

/**
 * The worker: opens `count` streams (50 at a time), says when they are open (and which were
 * refused), counts each one's events until told to stop, then says how many each received.
 */
async function holdSubscribers({ api, count }) {
  const requests = [];
  const events = new Array(count).fill(0);
  const t0 = performance.now();
  const opened = await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    50,
    (i) =>
      new Promise((resolve, reject) => {
        const req = request(`${api}/events`, { agent: false, headers: { accept: "text/event-stream" } }, (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            reject(new Error(`${res.statusCode} ${res.headers["content-type"]}`));
            return;
          }
          res.setEncoding("utf8");
          let tail = "";
          res.on("data", (chunk) => {
            // A message's `event:` line may be cut between two chunks: the end of the last one is
            // kept, one character short of a whole match, which is counted once.
            const text = tail + chunk;
            events[i] += text.split("\nevent: ").length - 1;
            tail = text.slice(-7);
          });
          res.on("error", () => {});
          resolve();
        });
        req.on("error", reject);
        requests.push(req);
        req.end();
      }),
  );
  const refused = opened.filter((r) => !r.ok).map((r) => String(r.error?.message ?? r.error));
  parentPort.postMessage({ ms: performance.now() - t0, refused });
  parentPort.once("message", () => {
    for (const req of requests) req.destroy();
    parentPort.postMessage({ events });
  });
}
