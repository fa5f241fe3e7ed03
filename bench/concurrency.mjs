// Many steps at once: 50 idle/idle5 executions are prepared, then all run at once; the wall
// time of the runs (first POST sent to last answer) against the 5 s each of them sleeps.
// On `local` and on ONE existing host (a private sshd with its stock limits), each on the
// embedded PGlite and on PostgreSQL (a throwaway schema). Target: all complete, <= 1.3x 5 s.
//
// Usage: node bench/concurrency.mjs [--count=50] [--providers=local,ssh] [--databases=pglite,postgres]
import { failure, figure } from "./harness/figures.mjs";
import { LOCAL_SESSION, benchSshd, sshSessionBody } from "./harness/hosts.mjs";
import { httpRequest } from "./harness/http.mjs";
import { cleanupStack, flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startServer } from "./harness/server-process.mjs";
import { mapLimit } from "./harness/timing.mjs";

const opts = flags({ count: 50, providers: "local,ssh", databases: "pglite,postgres" });
const IDLE_SECONDS = 5;

await main(async (defer) => {
  const providers = opts.providers.split(",");
  const sshd = providers.includes("ssh") ? await benchSshd(defer) : undefined;
  for (const database of opts.databases.split(",")) {
    // One server per database, stopped (and its schema dropped) before the next starts.
    const scoped = cleanupStack();
    defer(() => scoped.run());
    const scope = scoped.defer;
    try {
      const databaseUrl = database === "postgres" ? await postgresSchema(scope) : undefined;
      const db = databaseUrl ? "PostgreSQL" : "PGlite";
      const server = await startServer(scope, { dataDir: tempDir(scope, "data"), configDir: benchConfigDir(scope), databaseUrl });
      for (const provider of providers) {
        const where = provider === "ssh" ? `one sshd${sshd.limitsNote}` : "local";
        console.log(`\n== ${opts.count} x idle5 at once, ${where}, ${db}`);
        try {
          const result = await runAtOnce(server, provider === "ssh" ? sshSessionBody(sshd) : LOCAL_SESSION, opts.count);
          figure({
            measure: `${opts.count} idle5 at once, ${where}, ${db}: wall (${result.completed} completed, ${result.failed} failed)`,
            now: result.seconds,
            ref: IDLE_SECONDS,
            unit: "s",
            refLabel: "one idle5's sleep",
            target: "all complete, <= 1.2x",
            ok: (r) => result.failed === 0 && result.completed === opts.count && r <= 1.2,
          });
        } catch (e) {
          failure(`${opts.count} idle5 at once, ${where}, ${db}`, e);
        }
      }
    } catch (e) {
      failure(`${opts.count} idle5 at once, ${database}`, e);
    } finally {
      await scoped.run();
    }
  }
});

async function runAtOnce(server, sessionBody, count) {
  const { call, api } = server;
  const session = await call("POST", "/sessions/", sessionBody);
  try {
    const executions = [];
    for (let i = 0; i < count; i++) executions.push((await call("POST", `/sessions/${session.id}/executions/`, { tool: "idle", workload: "idle5" })).id);
    const t0 = performance.now();
    const prepared = await mapLimit(executions, 8, (id) => call("POST", `/executions/${id}/prepare`));
    const unprepared = prepared.filter((r) => !r.ok);
    console.log(`prepared ${count - unprepared.length}/${count} in ${((performance.now() - t0) / 1000).toFixed(1)} s (8 at once)`);
    if (unprepared.length) console.log(`first prepare failure: ${unprepared[0].error.message}`);

    const ready = executions.filter((_, i) => prepared[i].ok);
    const started = performance.now();
    const answers = await Promise.all(
      ready.map(async (id) => {
        try {
          const res = await httpRequest("POST", `${api}/executions/${id}/run`);
          return { status: res.status, text: res.body.toString(), at: performance.now() };
        } catch (e) {
          return { status: 0, text: e.message, at: performance.now() };
        }
      }),
    );
    const seconds = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
    const completed = answers.filter((a) => a.status === 200).length;
    const failures = answers.filter((a) => a.status !== 200);
    const firstDone = (Math.min(...answers.map((a) => a.at)) - started) / 1000;
    console.log(
      `run: ${completed} completed, ${failures.length} failed (+${unprepared.length} not prepared); first answer after ${firstDone.toFixed(2)} s, last after ${seconds.toFixed(2)} s`,
    );
    if (failures.length) console.log(`first run failure: ${failures[0].status} ${failures[0].text.slice(0, 400)}`);
    return { seconds, completed, failed: failures.length + unprepared.length };
  } finally {
    await call("DELETE", `/sessions/${session.id}`);
  }
}
