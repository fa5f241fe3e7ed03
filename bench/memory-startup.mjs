// The server process at rest, started as an operator starts it (`node apps/server/dist/main.js`):
// - the time from spawn to its first 200 on GET /api/v1/benchmarks/ on an EXISTING data dir
//   (started once to create it, stopped, then started again; median of --starts), target <= 1.5 s;
// - its resident memory (VmRSS) after that first answer and after --idle-seconds of rest,
//   targets <= 200 MiB on the embedded PGlite and <= 120 MiB on PostgreSQL (a throwaway schema).
// Reference for all: a bare Express 5 process (bench/bare-express.mjs) answering the same
// route with the same bytes, started and measured the same way.
//
// Usage: node bench/memory-startup.mjs [--starts=3] [--idle-seconds=3] [--databases=pglite,postgres]
import { failure, figure } from "./harness/figures.mjs";
import { MiB, residentBytes } from "./harness/memory.mjs";
import { cleanupStack, flags, main, tempDir } from "./harness/script.mjs";
import { bareEnv, benchConfigDir, firstAnswer, freePort, postgresSchema, serverEnv, spawnServer } from "./harness/server-process.mjs";
import { median, sleep } from "./harness/timing.mjs";

const opts = flags({ starts: 3, idleSeconds: 3, databases: "pglite,postgres" });
const PATH = "/api/v1/benchmarks/";
// Issue 36: idle RSS on PostgreSQL <= 100 MiB (PGlite holds the database in the process).
const TARGET_MIB = { pglite: 200, postgres: 100 };

const dbName = (database) => (database === "postgres" ? "PostgreSQL" : "PGlite");

/** Starts a process --starts times on a fresh port each time: first-answer times, RSS after it, and after a rest (last start). */
async function measureStarts(defer, which, envFor) {
  const answers = [];
  const firstRss = [];
  let idleRss = NaN;
  let last;
  for (let i = 0; i < opts.starts; i++) {
    const port = await freePort();
    const proc = spawnServer(defer, which, envFor(port));
    const answer = await firstAnswer(proc, `http://127.0.0.1:${port}${PATH}`);
    firstRss.push(residentBytes(proc.pid) / MiB);
    answers.push(answer.ms);
    last = answer;
    if (i === opts.starts - 1) {
      await sleep(opts.idleSeconds * 1000);
      idleRss = residentBytes(proc.pid) / MiB;
    }
    await proc.stop();
  }
  console.log(
    `${which}: first answer ${answers.map((ms) => ms.toFixed(0)).join(", ")} ms; RSS after it ${firstRss.map((m) => m.toFixed(1)).join(", ")} MiB; after ${opts.idleSeconds} s idle ${idleRss.toFixed(1)} MiB`,
  );
  return { firstAnswerMs: median(answers), firstRss: median(firstRss), idleRss, answer: last };
}

await main(async (defer) => {
  const results = {};
  for (const database of opts.databases.split(",")) {
    const scoped = cleanupStack();
    defer(() => scoped.run());
    try {
      const databaseUrl = database === "postgres" ? await postgresSchema(scoped.defer) : undefined;
      const dirs = { dataDir: tempDir(scoped.defer, "data"), configDir: benchConfigDir(scoped.defer), databaseUrl };
      // The first start creates the data dir (and migrates the schema); only later starts are timed.
      const creating = spawnServer(scoped.defer, "server", serverEnv(dirs));
      await creating.listening;
      await creating.stop();
      results[database] = await measureStarts(scoped.defer, "server", (port) => serverEnv({ ...dirs, port }));
    } catch (e) {
      failure(`server start and memory, ${dbName(database)}`, e);
    } finally {
      await scoped.run();
    }
  }

  const anyResult = Object.values(results)[0];
  if (!anyResult) return;
  const bareScope = cleanupStack();
  defer(() => bareScope.run());
  const bare = await measureStarts(bareScope.defer, "bare", (port) =>
    bareEnv(bareScope.defer, { body: anyResult.answer.body, contentType: anyResult.answer.contentType, port }),
  );

  for (const [database, r] of Object.entries(results)) {
    const db = dbName(database);
    figure({
      measure: `first answer after start on an existing data dir, ${db}`,
      now: r.firstAnswerMs,
      ref: bare.firstAnswerMs,
      unit: "ms",
      refLabel: "bare Express process",
      target: "<= 800 ms",
      ok: (_r, now) => now <= 800,
    });
    for (const [when, now, ref] of [
      ["after first answer", r.firstRss, bare.firstRss],
      [`after ${opts.idleSeconds} s idle`, r.idleRss, bare.idleRss],
    ]) {
      figure({
        measure: `server RSS ${when}, ${db}`,
        now,
        ref,
        unit: "MiB",
        refLabel: "bare Express process",
        target: `<= ${TARGET_MIB[database]} MiB`,
        ok: (_r, v) => v <= TARGET_MIB[database],
      });
    }
  }
});
