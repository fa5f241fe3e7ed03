// Issue 34's acceptance: does a step run twice after its worker is killed? Two servers and a
// worker, each a process with a data dir of its own, on one PostgreSQL schema; a plan of
// `--cells` cells of a `--seconds` workload on the `local` provider (the run script counts its
// launches in a file outside every data dir); the worker SIGKILLed once `--kill-at` cells have
// completed. Server A drives the run and runs no steps, so its steps go to B and the worker; the
// worker's are taken over by B 15 s after the kill. B cannot reach the worker's data dir: it
// must not launch them again there, but end them lost, and the plan retries them (`--retries`).
// Each of `--rounds` rounds prints the host's count of run-script launches beside the cells'
// count plus the run retries the API records (run attempts beyond the first, per cell), less
// the lost run attempts the worker had claimed but not launched when it was killed (their dir
// in its data dir has no launch.lock: they were begun, and retried, but never ran).
// Target: equal, every round (before the fix, the taker launched the worker's steps again).
//
// Usage: node bench/takeover-launches.mjs [--rounds=3] [--cells=40] [--seconds=3] [--kill-at=12] [--retries=2] [--concurrency=4]
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { failure, figure } from "./harness/figures.mjs";
import { httpRequest } from "./harness/http.mjs";
import { cleanupStack, flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startServer, startWorker } from "./harness/server-process.mjs";
import { sleep } from "./harness/timing.mjs";

const opts = flags({ rounds: 3, cells: 40, seconds: 3, killAt: 12, retries: 2, concurrency: 4 });

await main(
  async () => {
    for (let round = 1; round <= opts.rounds; round++) {
      // Each round on processes and a schema of its own, stopped before the next starts.
      const cleanups = cleanupStack();
      try {
        const r = await oneRound(cleanups.defer);
        const expected = r.cells + r.retries - r.unlaunched;
        console.log(
          `round ${round}: ${r.launches} launches; ${r.cells} cells (${r.completed} completed) + ${r.retries} run retries recorded = ${r.cells + r.retries}; ` +
            `${r.lost} attempts lost with the worker, ${r.unlaunched} of them runs it had claimed and not launched; worker killed at ${r.killedAt}/${r.cells}`,
        );
        figure({
          measure: `round ${round}: run-script launches on the host, worker killed at ${r.killedAt}/${r.cells}`,
          now: r.launches,
          ref: expected,
          unit: "launches",
          digits: 0,
          refLabel: `${r.cells} cells + ${r.retries} run retries the API records${r.unlaunched ? ` - ${r.unlaunched} lost before its launch` : ""}; ${r.lost} lost`,
          target: "= 1x, all completed",
          ok: () => r.launches === expected && r.completed === r.cells,
        });
      } catch (e) {
        failure(`round ${round}`, e);
      } finally {
        await cleanups.run();
      }
    }
  },
  { limitSeconds: 600 * opts.rounds },
);

async function oneRound(defer) {
  const counter = join(tempDir(defer, "launches"), "launches");
  const configDir = benchConfigDir(defer, {
    counted: [
      "id: counted",
      "tool_name: counted",
      "parser: keyvalue",
      "timeout: {prepare: 60, run: 120}",
      "scripts: {}",
      "workloads:",
      "  - id: run",
      "    workload_name: counted run",
      `    workload_description: Counts its launch, then sleeps ${opts.seconds} s`,
      "    categories: [test]",
      "    scripts:",
      "      run: |",
      `        echo "$BW_EXECUTION_ID" >> ${counter}`,
      `        sleep ${opts.seconds}`,
      `        echo 'BW_METRIC slept ${opts.seconds} s'`,
      "",
    ].join("\n"),
  });
  const databaseUrl = await postgresSchema(defer);
  const shared = { configDir, databaseUrl };
  const key = randomBytes(32).toString("base64");
  const a = await startServer(defer, { ...shared, dataDir: tempDir(defer, "a"), extra: { BENCHWRIGHT_SECRET_KEY: key, BENCHWRIGHT_WORKER: "false" } });
  await startServer(defer, { ...shared, dataDir: tempDir(defer, "b"), extra: { BENCHWRIGHT_SECRET_KEY: key } });
  const workerDir = tempDir(defer, "w");
  const worker = { ...(await startWorker(defer, { ...shared, dataDir: workerDir, extra: { BENCHWRIGHT_SECRET_KEY: key } })), dataDir: workerDir };

  const plan = await a.call("POST", "/plans/", {
    targets: [{ label: "here", provider: "local", service: "default" }],
    benchmarks: Array.from({ length: opts.cells }, () => ({ tool: "counted", workload: "run" })),
    concurrency: { per_target: opts.concurrency, overall: opts.concurrency },
    retries: opts.retries,
  });
  const started = await httpRequest("POST", `${a.api}/plans/${plan.id}/runs/`);
  if (started.status !== 202) throw new Error(`POST /plans/${plan.id}/runs/: ${started.status} ${started.body.toString().slice(0, 300)}`);
  const runPath = `/plans/${plan.id}/runs/${JSON.parse(started.body.toString()).id}`;

  let run;
  let killedAt;
  for (;;) {
    run = await a.call("GET", runPath);
    // Killed mid-step: once enough cells completed, at a moment a run of its own is under way.
    if (killedAt === undefined && run.progress.completed >= opts.killAt && runningIn(workerDir)) {
      killedAt = run.progress.completed;
      process.kill(worker.pid, "SIGKILL");
    }
    if (["completed", "failed", "cancelled"].includes(run.state)) break;
    await sleep(100);
  }
  if (killedAt === undefined) throw new Error(`the run ended (${run.state}) before ${opts.killAt} cells completed`);
  // A lost attempt's process goes on in the dead worker's data dir: let it write its launch (it did at its start) and end.
  await sleep(opts.seconds * 1000 + 1000);

  const rows = run.cells;
  let retries = 0;
  let lost = 0;
  // Lost run attempts the worker had not launched yet when it was killed (it had claimed them):
  // no launch.lock in their dir in its data dir. They count as retries but never ran.
  let unlaunched = 0;
  for (const cell of rows) {
    const execution = await a.call("GET", `/executions/${cell.execution_id}`);
    const runs = execution.steps.filter((s) => s.step === "run");
    retries += Math.max(0, runs.length - 1);
    for (const s of execution.steps.filter((s) => s.state === "failed" && /lost with the process that drove it/.test(s.error ?? ""))) {
      lost++;
      const dir = join(worker.dataDir, "work", execution.session_id, execution.id, `${s.step}-${s.attempt}`);
      if (s.step === "run" && !existsSync(join(dir, "launch.lock"))) unlaunched++;
    }
  }
  const launches = existsSync(counter) ? readFileSync(counter, "utf8").split("\n").filter(Boolean).length : 0;
  return { launches, cells: rows.length, completed: run.progress.completed, retries, lost, unlaunched, killedAt };
}

/** Whether a run step launched in `dataDir`'s local work dirs has not ended yet (step.pid, no step.rc). */
function runningIn(dataDir) {
  const work = join(dataDir, "work");
  if (!existsSync(work)) return false;
  for (const session of readdirSync(work))
    for (const execution of readdirSync(join(work, session)))
      for (const step of readdirSync(join(work, session, execution))) {
        const dir = join(work, session, execution, step);
        if (step.startsWith("run-") && existsSync(join(dir, "step.pid")) && !existsSync(join(dir, "step.rc"))) return true;
      }
  return false;
}
