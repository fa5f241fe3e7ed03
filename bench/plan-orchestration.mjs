// What a plan's orchestration costs: `--count` idle0 executions spread over `--hosts` existing
// hosts (a private sshd each), once driven one by one through the API by a script at the
// plan's concurrency (a session per host, then create, prepare and run each execution, then
// delete the sessions), once as one plan run (POST /plans/, POST /plans/{id}/runs, then
// GET the run until it ends). Both on one server (embedded PGlite unless told otherwise).
// Targets: the plan's wall time <= 1.2x the script's; its report answers in < 200 ms (median
// of 20 GETs, JSON).
//
// Usage: node bench/plan-orchestration.mjs [--count=1000] [--hosts=10] [--database=pglite|postgres]
import { failure, figure } from "./harness/figures.mjs";
import { benchSshd, sshSessionBody } from "./harness/hosts.mjs";
import { httpRequest } from "./harness/http.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startServer } from "./harness/server-process.mjs";
import { mapLimit, median, sleep, timeEach } from "./harness/timing.mjs";

const opts = flags({ count: 1000, hosts: 10, database: "pglite" });

await main(
  async (defer) => {
    const hosts = [];
    for (let i = 0; i < opts.hosts; i++) hosts.push(await benchSshd(defer));
    const databaseUrl = opts.database === "postgres" ? await postgresSchema(defer) : undefined;
    const server = await startServer(defer, { dataDir: tempDir(defer, "data"), configDir: benchConfigDir(defer), databaseUrl });
    const perHost = Math.ceil(opts.count / hosts.length);
    // One at a time on each host, all hosts at once: the plan's default per target, its overall set to match.
    const concurrency = hosts.length;
    console.log(`== ${perHost * hosts.length} idle0 over ${hosts.length} hosts, ${concurrency} at once, ${databaseUrl ? "PostgreSQL" : "PGlite"}`);

    const script = await byScript(server, hosts, perHost, concurrency);
    console.log(`script: ${script.completed} completed in ${script.seconds.toFixed(1)} s`);
    const plan = await byPlan(server, hosts, perHost, concurrency);
    console.log(`plan run ${plan.runPath}: ${plan.completed} completed in ${plan.seconds.toFixed(1)} s`);
    figure({
      measure: `${perHost * hosts.length} idle0 over ${hosts.length} hosts as a plan run (wall)`,
      now: plan.seconds,
      ref: script.seconds,
      unit: "s",
      refLabel: "the same driven one by one through the API",
      target: "<= 1.2x, all completed",
      ok: (r) => r <= 1.2 && plan.completed === perHost * hosts.length,
    });
    try {
      const samples = await timeEach(20, async () => {
        const res = await httpRequest("GET", `${server.api}${plan.runPath}/report`);
        if (res.status !== 200) throw new Error(`report: ${res.status} ${res.body.toString().slice(0, 300)}`);
      });
      figure({ measure: "the run's report (JSON), median of 20", now: median(samples), unit: "ms", target: "< 200 ms", ok: (_ratio, ms) => ms < 200 });
    } catch (e) {
      failure("the run's report", e);
    }
  },
  { limitSeconds: 3600 },
);

/** Sessions, executions, prepares and runs, each a request, `concurrency` executions at once. */
async function byScript(server, hosts, perHost, concurrency) {
  const { call } = server;
  const t0 = performance.now();
  const sessions = [];
  try {
    for (const host of hosts) sessions.push((await call("POST", "/sessions/", sshSessionBody(host))).id);
    const work = sessions.flatMap((session) => Array.from({ length: perHost }, () => session));
    // A host's executions one after another, as the plan's per_target of 1 does.
    const byHost = sessions.map((session) => work.filter((s) => s === session));
    const settled = await mapLimit(byHost, concurrency, async (own) => {
      for (const session of own) {
        const { id } = await call("POST", `/sessions/${session}/executions/`, { tool: "idle", workload: "idle0" });
        await call("POST", `/executions/${id}/prepare`);
        await call("POST", `/executions/${id}/run`);
      }
    });
    const failed = settled.find((r) => !r.ok);
    if (failed) throw failed.error;
  } finally {
    for (const id of sessions) await call("DELETE", `/sessions/${id}`);
  }
  return { seconds: (performance.now() - t0) / 1000, completed: perHost * hosts.length };
}

/** The same as one plan: a target per host, one benchmark entry per execution on it. */
async function byPlan(server, hosts, perHost, concurrency) {
  const { call } = server;
  const t0 = performance.now();
  const plan = await call("POST", "/plans/", {
    targets: hosts.map((host, i) => ({ label: `host${i}`, config: sshSessionBody(host).config })),
    // One benchmark entry per execution: idle0 declares no param a list could sweep.
    benchmarks: Array.from({ length: perHost }, () => ({ tool: "idle", workload: "idle0" })),
    concurrency: { per_target: 1, overall: concurrency },
  });
  const started = await httpRequest("POST", `${server.api}/plans/${plan.id}/runs/`);
  if (started.status !== 202) throw new Error(`POST /plans/${plan.id}/runs/: ${started.status} ${started.body.toString().slice(0, 300)}`);
  const run = JSON.parse(started.body.toString());
  const runPath = `/plans/${plan.id}/runs/${run.id}`;
  let current = run;
  // Looked at once a second, as a person's client would: each look reads the run's every cell.
  while (!["completed", "failed", "cancelled"].includes(current.state)) {
    await sleep(1000);
    current = await call("GET", runPath);
  }
  return { seconds: (performance.now() - t0) / 1000, completed: current.progress.completed, runPath };
}
