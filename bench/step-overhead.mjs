// What a step costs on top of the command it runs, and how soon the end of a step is noticed.
//
// 1. No-op step: API wall time (p50) of POST /executions/{id}/run of idle/idle0,
//    - over SSH (existing-vm session on a private sshd) vs one exec of `true` on a warm ssh2
//      connection with Nagle's algorithm off, the best a client can do (target <= 1.3x with
//      --delay-ms=50, issue 36; without delay it is judged against its floor, 3.); vs the
//      same on a client as ssh2 makes it (Nagle on: how the issue measured its 48 ms reference);
//      and vs a fresh `ssh host true` (OpenSSH client);
//    - on `local` (Form A local/default) vs spawning `bash -c true`.
// 2. Notice latency: idle/idle5 over SSH and on local; the API answer's arrival minus the
//    moment the step's process ended (the mtime of its step.rc on the host, which is this
//    machine), target <= 15 ms; also the step's reported duration minus its idle_seconds.
//    Reference: a warm ssh2 exec (local: bash -c) of `sleep 5`, minus 5 s.
// 3. What no step can do without, against the same reference as 1: the idle0 run script alone
//    (`bash -c <its text>`, through the same warm connection, or spawned), and the store's own
//    writes for one step attempt (begin, handle, end: each a durable write that the protocol
//    needs before the launch or before the answer) on the server's kind of database.
//    Their sum is the least a no-op step can take with the store's writes as they are,
//    whatever the step protocol; without added delay the no-op step's target is <= 1.2x of it.
//
// Usage: node bench/step-overhead.mjs [--runs=20] [--reference-runs=50] [--fresh-ssh-runs=10] [--notice-runs=1]
//        [--database=pglite|postgres] [--delay-ms=0]
// `--delay-ms=50` puts a proxy in front of the sshd that adds 50 ms to each round trip (issue 36's measure).
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "@benchwright/catalog";
import { bashC } from "@benchwright/engine";
import { startTcpProxy } from "@benchwright/testing";
import { figure } from "./harness/figures.mjs";
import { LOCAL_SESSION, bash, benchSshd, opensshArgs, sshSessionBody, ssh2Connection } from "./harness/hosts.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { benchConfigDir, postgresSchema, startServer } from "./harness/server-process.mjs";
import { median, timeEach } from "./harness/timing.mjs";

const opts = flags({ runs: 20, referenceRuns: 50, freshSshRuns: 10, noticeRuns: 1, database: "pglite", delayMs: 0 });
if (!["pglite", "postgres"].includes(opts.database)) throw new Error(`--database is pglite or postgres, not ${opts.database}`);

await main(async (defer) => {
  const sshd = await delayed(await benchSshd(defer), opts.delayMs, defer);
  const dataDir = tempDir(defer, "data");
  const databaseUrl = opts.database === "postgres" ? await postgresSchema(defer) : undefined;
  const server = await startServer(defer, { dataDir, configDir: benchConfigDir(defer), ...(databaseUrl ? { databaseUrl } : {}) });
  const { call } = server;
  const onDb = opts.database === "postgres" ? " (PostgreSQL)" : "";
  const idle0Script = loadCatalog().runScript("idle", "idle0", { platform: "debian" });
  const storeWrites = await storeWritesPerStep(databaseUrl && (await postgresSchema(defer)), opts.runs);

  const ssh = await ssh2Connection(sshd);
  defer(() => ssh.end());

  const targets = [
    {
      name: "SSH",
      body: sshSessionBody(sshd),
      // existing-vm steps work below ~/.benchwright of the login user: this machine's root here.
      workRoot: () => join(homedir(), ".benchwright"),
      noop: () => ssh.exec("true"),
      noopLabel: "warm ssh2 exec true",
      script: () => ssh.exec(bashC(idle0Script)),
      sleep5: () => ssh.exec("sleep 5"),
      sleepLabel: "warm ssh2 exec sleep 5, minus 5 s",
      // Issue 36: at a 50 ms round trip, one step is at most 1.3 warm execs; on loopback it is measured against its floor.
      target: opts.delayMs > 0 ? { text: "<= 1.3x", ok: (r) => r <= 1.3 } : undefined,
    },
    {
      name: "local",
      body: LOCAL_SESSION,
      workRoot: (session) => join(dataDir, "work", session),
      noop: () => bash("true"),
      noopLabel: "spawn bash -c true",
      script: () => bash(idle0Script),
      sleep5: () => bash("sleep 5"),
      sleepLabel: "spawn bash -c 'sleep 5', minus 5 s",
      target: undefined,
    },
  ].filter((t) => opts.delayMs === 0 || t.name === "SSH"); // a delay is added to SSH only: local is measured without

  for (const t of targets) {
    console.log(`\n== ${t.name}`);
    const session = await call("POST", "/sessions/", t.body);
    defer(() => call("DELETE", `/sessions/${session.id}`));

    // No-op step, run again and again on one execution (each run is a new attempt).
    const noop = await call("POST", `/sessions/${session.id}/executions/`, { tool: "idle", workload: "idle0" });
    await call("POST", `/executions/${noop.id}/prepare`);
    await timeEach(2, () => call("POST", `/executions/${noop.id}/run`)); // warms the pool and the code paths
    const api = median(await timeEach(opts.runs, () => call("POST", `/executions/${noop.id}/run`)));
    await timeEach(5, t.noop);
    const reference = median(await timeEach(opts.referenceRuns, t.noop));
    console.log(`no-op step p50 ${api.toFixed(1)} ms over ${opts.runs} runs; ${t.noopLabel} p50 ${reference.toFixed(2)} ms over ${opts.referenceRuns}`);
    const delay = opts.delayMs > 0 ? `, ${opts.delayMs} ms added round trip` : "";
    figure({
      measure: `no-op step (idle0) API wall p50, ${t.name}${onDb}${delay}`,
      now: api,
      ref: reference,
      unit: "ms",
      refLabel: t.noopLabel,
      target: t.target?.text,
      ok: t.target?.ok,
    });
    // The floor: the workload's own script, and the store's writes, each against the same reference.
    await timeEach(3, t.script);
    const script = median(await timeEach(opts.referenceRuns, t.script));
    figure({ measure: `floor: idle0's run script alone, ${t.name}${delay}`, now: script, ref: reference, unit: "ms", refLabel: t.noopLabel });
    figure({
      measure: `floor: the store's writes of one step${onDb}`,
      now: storeWrites,
      ref: reference,
      unit: "ms",
      refLabel: t.noopLabel,
    });
    figure({ measure: `floor: their sum, ${t.name}${onDb}${delay}`, now: script + storeWrites, ref: reference, unit: "ms", refLabel: t.noopLabel });
    // Issue 36: without added delay, the no-op step is within 1.2x of what no step can do without.
    if (!delay) {
      figure({
        measure: `no-op step (idle0) API wall p50 vs its floor, ${t.name}${onDb}`,
        now: api,
        ref: script + storeWrites,
        unit: "ms",
        refLabel: "idle0's script + the store's writes",
        target: "<= 1.2x",
        ok: (r) => r <= 1.2,
      });
    }
    if (t.name === "SSH") {
      // The issue's reference, 48 ms on its machine, is an exec on a client as ssh2 makes it.
      const plain = await ssh2Connection(sshd, { ssh2Defaults: true });
      defer(() => plain.end());
      await timeEach(2, () => plain.exec("true"));
      const asMeasured = median(await timeEach(10, () => plain.exec("true")));
      figure({
        measure: `no-op step (idle0) API wall p50, SSH vs ssh2 as it comes${delay}`,
        now: api,
        ref: asMeasured,
        unit: "ms",
        refLabel: "warm ssh2 exec true, ssh2's defaults (Nagle on), as the issue measured",
      });
      const fresh = median(await timeEach(opts.freshSshRuns, () => opensshTrue(sshd)));
      figure({
        measure: `no-op step (idle0) API wall p50, SSH vs fresh ssh${delay}`,
        now: api,
        ref: fresh,
        unit: "ms",
        refLabel: "fresh `ssh host true`",
      });
    }

    // Notice latency.
    const idle = await call("POST", `/sessions/${session.id}/executions/`, { tool: "idle", workload: "idle5" });
    await call("POST", `/executions/${idle.id}/prepare`);
    const notices = [];
    const overheads = [];
    for (let i = 0; i < opts.noticeRuns; i++) {
      const step = await call("POST", `/executions/${idle.id}/run`);
      const answeredAt = Date.now();
      const execution = await call("GET", `/executions/${idle.id}`);
      const idleSeconds = execution.metrics.find((m) => m.name === "idle_seconds")?.value;
      const attempt = execution.steps.filter((s) => s.step === "run").at(-1).attempt;
      const rc = stepRcMtime(t.workRoot(session.id), idle.id, attempt);
      notices.push(rc === undefined ? NaN : answeredAt - rc);
      overheads.push((Number(step.duration) - Number(idleSeconds)) * 1000);
      console.log(
        `idle5 run ${i + 1}: duration ${step.duration} s, idle_seconds ${idleSeconds}, answer - step.rc mtime ${rc === undefined ? "n/a (no step.rc found)" : `${answeredAt - rc} ms`}`,
      );
    }
    const sleepRef = median(await timeEach(1, t.sleep5)) - 5000;
    figure({
      measure: `step end noticed (answer - step.rc), ${t.name}${delay}`,
      now: median(notices),
      ref: sleepRef,
      unit: "ms",
      refLabel: t.sleepLabel,
      // With a delay added, the answer comes later by the network's delay: the target is the loopback's.
      ...(delay ? {} : { target: "<= 15 ms", ok: (_r, now) => now <= 15 }),
    });
    figure({
      measure: `idle5 reported duration - idle_seconds, ${t.name}${delay}`,
      now: median(overheads),
      ref: sleepRef,
      unit: "ms",
      refLabel: t.sleepLabel,
    });
  }
});

/**
 * The sshd as seen through a proxy that adds `delayMs` to every round trip (half each way),
 * for the server and the reference clients alike: a host across a network. 0: the sshd itself.
 */
async function delayed(sshd, delayMs, defer) {
  if (delayMs <= 0) return sshd;
  const proxy = await startTcpProxy({ host: sshd.host, port: sshd.port }, { delayMs });
  defer(() => proxy.close());
  console.log(`SSH through a proxy adding ${delayMs} ms to each round trip`);
  return { ...sshd, port: proxy.port, limitsNote: `${sshd.limitsNote} [+${delayMs} ms round trip]` };
}

/**
 * The store's writes for one step, p50 over `runs` (store-writes.mjs), in a process of its own:
 * a database loaded here would make this process's own forks, the local reference, slower.
 */
function storeWritesPerStep(databaseUrl, runs) {
  return new Promise((resolve, reject) => {
    const args = [fileURLToPath(new URL("./store-writes.mjs", import.meta.url)), `--runs=${runs}`, ...(databaseUrl ? [`--database-url=${databaseUrl}`] : [])];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      const ms = Number(/^p50 ([\d.]+) ms$/m.exec(out)?.[1]);
      if (code === 0 && Number.isFinite(ms)) resolve(ms);
      else reject(new Error(`store-writes.mjs exited ${code}: ${out.trim()}`));
    });
  });
}

/** A fresh OpenSSH client connection running `true`, as an operator would type it. */
function opensshTrue(sshd) {
  return new Promise((resolve, reject) => {
    const args = opensshArgs(sshd, "true");
    const child = spawn("ssh", args, { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`ssh exited ${code}`))));
  });
}

/**
 * When the step's process ended: the mtime (ms) of the step.rc the runner waits for. The work
 * dir's layout is the engine's business, so look for `<execution>/**\/run-<attempt>/step.rc`.
 */
function stepRcMtime(workRoot, executionId, attempt) {
  const find = (dir, depth) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const path = join(dir, e.name);
      if (e.name === `run-${attempt}`) {
        try {
          return statSync(join(path, "step.rc")).mtimeMs;
        } catch {
          // not this one
        }
      }
      if (depth > 0) {
        const found = find(path, depth - 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return find(join(workRoot, executionId), 3);
}
