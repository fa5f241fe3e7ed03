// The store's writes for one step attempt, as a no-op run makes them on a server whose worker
// takes it: beginStep (leased to that worker), recordStepHandle and endStep, each a durable
// write the step protocol needs before the launch or before the answer. Prints their p50 over
// --runs steps of one prepared execution, on a PGlite data dir of its own, or on
// --database-url (a schema step-overhead.mjs made for it).
//
// Usage: node bench/store-writes.mjs [--runs=20] [--database-url=postgres://...]
import { randomUUID } from "node:crypto";
import { migrate, openDb, storeWithEvents } from "@benchwright/engine";
import { flags, main, tempDir } from "./harness/script.mjs";
import { median, timeEach } from "./harness/timing.mjs";

const opts = flags({ runs: 20, databaseUrl: "" });

await main(async (defer) => {
  const db = await openDb(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : { pgliteDir: tempDir(defer, "store-writes") });
  defer(() => db.close());
  await migrate(db);
  const store = storeWithEvents(db);
  const [sessionId, executionId] = [randomUUID(), randomUUID()];
  const created = new Date();
  await store.sessions.insert({
    id: sessionId,
    provider_name: "bench",
    service_type: "default",
    provider_class: "local",
    driver: null,
    region: null,
    config_sealed: "",
    state: "active",
    created,
  });
  const test = { tool_id: "idle", workload_id: "idle0", tool_name: "Idle", workload_name: "Idle 0 s" };
  await store.executions.insert({
    id: executionId,
    session_id: sessionId,
    tool_id: "idle",
    workload_id: "idle0",
    test,
    state: "prepared",
    created,
  });
  const oneStep = async () => {
    const run = { from: ["prepared", "completed", "run_failed"], to: "running" };
    const step = await store.steps.begin(executionId, "run", run, new Date(), (a) => `run-${a}.log`, { owner: "bench", leaseMs: 15_000 });
    const key = { execution_id: executionId, step: "run", attempt: step.attempt };
    await store.leases.recordHandle(key, "bench", { machine_id: "local", pgid: null, machine_log_start: 0, metrics: [] });
    const end = { state: "succeeded", duration: 0, exit_code: 0, error: null, metrics: [{ name: "idle_seconds", value: 0, unit: "s" }] };
    await store.steps.end(key, end, { from: "running", to: "completed" }, "bench");
  };
  await timeEach(5, oneStep);
  console.log(`p50 ${median(await timeEach(opts.runs, oneStep)).toFixed(3)} ms`);
});
