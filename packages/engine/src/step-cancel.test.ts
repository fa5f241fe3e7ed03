import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { createTestSchema, startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "./engine.js";
import type { EngineOptions } from "./engine-options.js";
import { SecretBox } from "./secrets/secret-box.js";
import { engineStore } from "./test-access.js";

// Cancelling one step and keeping the session, as it runs where it is meant to: a server that
// runs no steps and a worker on PostgreSQL, an existing-vm session whose host is the private
// sshd. Each step's first attempt sleeps a minute; later attempts end at once, so that "run
// it again" is quick.
const SLOW_FIRST = [
  "id: slowfirst",
  "tool_name: slowfirst",
  "description: Sleeps on its first attempt",
  "parser: keyvalue",
  "timeout: {prepare: 120, run: 120}",
  "scripts: {}",
  "workloads:",
  "  - id: run",
  "    workload_name: slow first run",
  "    workload_description: The first run sleeps 60 s",
  "    categories: [test]",
  "    scripts:",
  "      run: |",
  '        echo "run $BW_ATTEMPT begins"',
  '        if [ "$BW_ATTEMPT" = 1 ]; then sleep 60; fi',
  '        echo "BW_METRIC attempt $BW_ATTEMPT count"',
  "  - id: prepare",
  "    workload_name: slow first prepare",
  "    workload_description: The first prepare sleeps 60 s",
  "    categories: [test]",
  "    scripts:",
  "      prepare: |",
  '        echo "prepare $BW_ATTEMPT begins"',
  '        if [ "$BW_ATTEMPT" = 1 ]; then sleep 60; fi',
  "      run: |",
  '        echo "BW_METRIC attempt $BW_ATTEMPT count"',
].join("\n");

describe("cancelling a step, the session kept", () => {
  let sshd: SshdHarness;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let dataDir: string;
  let options: EngineOptions;
  let server: Engine;
  let worker: Engine;

  beforeAll(async () => {
    sshd = await startSshd();
    schema = await createTestSchema();
    dataDir = mkdtempSync(join(tmpdir(), "bw-cancel-"));
    mkdirSync(join(dataDir, "config", "benchmarks"), { recursive: true });
    writeFileSync(join(dataDir, "config", "benchmarks", "slowfirst.yaml"), `${SLOW_FIRST}\n`);
    options = { dataDir, configDir: join(dataDir, "config"), databaseUrl: schema.url, secrets: new SecretBox(randomBytes(32)) };
    server = await Engine.open({ ...options, work: false });
    worker = await Engine.open({ ...options, worker: { renewMs: 500 } });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await worker?.close();
    await schema?.drop();
    await sshd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const execution = async (workload: "run" | "prepare") => {
    const session = await server.createSession({
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    } as Parameters<Engine["createSession"]>[0]);
    const created = await server.createExecution(session.id, { tool: "slowfirst", workload });
    return { sessionId: session.id, id: created.id, workDir: join(homedir(), ".benchwright", created.id) };
  };

  /** The process group of the step launched in `dir`, once it is there. */
  const launchedIn = async (dir: string): Promise<number> => {
    const file = join(dir, "step.pid");
    for (let i = 0; i < 300; i++) {
      if (existsSync(file) && readFileSync(file, "utf8").trim()) return Number(readFileSync(file, "utf8").trim());
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`nothing was launched in ${dir}`);
  };

  it("stops a run the worker follows, asked of a server that runs no steps; the run goes again", async () => {
    const { id, workDir } = await execution("run");
    await server.prepare(id);
    const attempt = await server.startStep("run", id);
    const waiting = server.waitForStep(attempt).catch((e: unknown) => e);
    const pgid = await launchedIn(join(workDir, "run-1"));
    expect(alive(pgid)).toBe(true);

    const asked = Date.now();
    const { execution: cancelled, ended } = await server.cancelExecution(id, { requestId: "cancel-test-1" });
    // The worker sees it at its next renewal (500 ms here), then TERM ends the sleep at once.
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(ended).toBe(true);
    expect(cancelled.state).toBe("run_failed");
    const run = cancelled.steps.find((s) => s.step === "run" && s.attempt === 1);
    expect(run).toMatchObject({ state: "failed", exit_code: null });
    expect(run?.error).toMatch(/^run 1 of slowfirst\/run was cancelled at \d{4}-\d\d-\d\dT[\d:.]+Z \(request cancel-test-1\)$/);
    // Whoever waited on the run hears of it as a step's failure.
    expect(await waiting).toMatchObject({
      code: "step_cancelled",
      extras: { state: "run_failed", execution_id: id, step: "run", attempt: 1, exit_code: null },
    });
    expect(await server.getStep(id, "run", 1)).toMatchObject({ state: "failed", error: { code: "step_cancelled" } });

    // Nothing of the step runs on the host; its dir stays as a killed step's (log, pid, no end code).
    expect(alive(pgid)).toBe(false);
    expect(readdirSync(join(workDir, "run-1"))).toEqual(expect.arrayContaining(["step.log", "step.pid", "launch.lock"]));
    expect(existsSync(join(workDir, "run-1", "step.rc"))).toBe(false);
    // The log says so at its end.
    const log = await server.openLog(id, { step: "run", attempt: 1 });
    const text = Buffer.concat(await collect(log.read())).toString("utf8");
    expect(text).toMatch(/run 1 begins\n[\s\S]*=== run 1 cancelled at .* \(request cancel-test-1\) ===\n$/);

    // The session goes on: the run again, a new attempt in a dir of its own.
    await expect(server.run(id)).resolves.toMatchObject({ duration: expect.any(String) });
    const again = await server.getExecution(id);
    expect(again.state).toBe("completed");
    expect(again.metrics).toEqual([expect.objectContaining({ name: "attempt", value: 2 })]);
  }, 90_000);

  it("stops a prepare at once when asked of the process that follows it; prepare and run go again", async () => {
    const { id, workDir } = await execution("prepare");
    const attempt = await worker.startStep("prepare", id);
    const pgid = await launchedIn(join(workDir, "prepare-1"));
    const asked = Date.now();
    const { execution: cancelled, ended } = await worker.cancelExecution(id);
    expect(Date.now() - asked).toBeLessThan(6_000);
    expect(ended).toBe(true);
    expect(cancelled.state).toBe("prepare_failed");
    expect(cancelled.steps.at(-1)?.error).toMatch(/^prepare 1 of slowfirst\/prepare was cancelled at \S+$/);
    // Its code, which tells a cancelled attempt from a failed one, is shown with it, also in a list.
    expect(cancelled.steps.at(-1)?.error_code).toBe("step_cancelled");
    const listed = (await server.listExecutions(cancelled.session_id)).items.find((e) => e.id === id);
    expect(listed?.steps.at(-1)?.error_code).toBe("step_cancelled");
    await expect(worker.waitForStep(attempt)).rejects.toMatchObject({ code: "step_cancelled", extras: { state: "prepare_failed" } });
    expect(alive(pgid)).toBe(false);
    // A run needs a prepared execution; a prepare again makes it one.
    await expect(server.run(id)).rejects.toMatchObject({ code: "wrong_state" });
    await server.prepare(id);
    await server.run(id);
    expect((await server.getExecution(id)).state).toBe("completed");
  }, 90_000);

  it("answers no_running_step when nothing runs, and not_found for no execution, changing nothing", async () => {
    const { id } = await execution("run");
    await expect(server.cancelExecution(id)).rejects.toMatchObject({ code: "no_running_step", extras: { state: "created" } });
    await server.prepare(id);
    await expect(worker.cancelExecution(id)).rejects.toMatchObject({ code: "no_running_step", extras: { state: "prepared" } });
    const prepared = await server.getExecution(id);
    expect(prepared.state).toBe("prepared");
    expect(prepared.steps).toEqual([expect.objectContaining({ step: "prepare", state: "succeeded" })]);
    await expect(server.cancelExecution("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ code: "not_found" });
  }, 60_000);

  it("launches nothing of a step cancelled between its handle and its launch", async () => {
    const { id, workDir } = await execution("run");
    await server.prepare(id);
    const store = engineStore(worker);
    const record = store.leases.recordHandle;
    let cancelling: Promise<unknown> | undefined;
    store.leases.recordHandle = async (...args) => {
      store.leases.recordHandle = record;
      // The request lands as the handle is recorded: the server waits for the end, which the worker records.
      cancelling = server.cancelExecution(id, { requestId: "early" });
      await new Promise((r) => setTimeout(r, 200));
      return record.apply(store, args);
    };
    try {
      await expect(server.run(id)).rejects.toMatchObject({ code: "step_cancelled", detail: expect.stringContaining("(request early)") });
    } finally {
      store.leases.recordHandle = record;
    }
    await expect(cancelling).resolves.toMatchObject({ ended: true, execution: { state: "run_failed" } });
    expect(existsSync(join(workDir, "run-1", "step.pid"))).toBe(false);
  }, 60_000);

  it("answers 'not ended' when nobody follows the step, and the next worker to take it up stops it", async () => {
    const { id, workDir } = await execution("run");
    await server.prepare(id);
    await server.startStep("run", id);
    const pgid = await launchedIn(join(workDir, "run-1"));
    // The worker stops: it hands the step back, which goes on, detached, on its host.
    await worker.close();
    expect(alive(pgid)).toBe(true);
    const { execution: asked, ended } = await server.cancelExecution(id);
    expect(ended).toBe(false);
    expect(asked.state).toBe("running");
    expect(alive(pgid)).toBe(true);
    // The next worker's sweep takes it, reads the request and stops it on its host.
    worker = await Engine.open({ ...options, worker: { renewMs: 500 } });
    const until = Date.now() + 20_000;
    while ((await server.getExecution(id)).state === "running" && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    const done = await server.getExecution(id);
    expect(done.state).toBe("run_failed");
    expect(done.steps.at(-1)?.error).toMatch(/was cancelled at/);
    expect(alive(pgid)).toBe(false);
  }, 90_000);
});

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Whether any process of the group still runs (zombies do not count). */
function alive(pgid: number): boolean {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}
