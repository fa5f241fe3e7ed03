import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "./engine.js";
import type { EngineOptions } from "./engine-options.js";
import { SecretBox } from "./secrets/secret-box.js";

// Issue 34: a worker with a data dir of its own stops while a step of a `local` session runs in
// that data dir; another worker takes the step over. In another data dir it cannot reach the
// step's dir, and used to launch the step again there (the host ran it twice). Here the run
// script counts its launches in a file outside every data dir.
describe("a local step taken over by a worker in another place", () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let root: string;
  let counter: string;
  let base: Omit<EngineOptions, "dataDir">;
  let server: Engine;
  const engines: Engine[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    root = mkdtempSync(join(tmpdir(), "bw-place-"));
    counter = join(root, "launches");
    mkdirSync(join(root, "config", "benchmarks"), { recursive: true });
    writeFileSync(
      join(root, "config", "benchmarks", "counted.yaml"),
      [
        "id: counted",
        "tool_name: counted",
        "parser: keyvalue",
        "timeout: {prepare: 60, run: 60}",
        "scripts: {}",
        "workloads:",
        "  - id: run",
        "    workload_name: counted run",
        "    workload_description: Counts its launches, then sleeps 4 s",
        "    categories: [test]",
        "    scripts:",
        "      run: |",
        `        echo "$BW_EXECUTION_ID" >> ${counter}`,
        "        sleep 4",
        "        echo 'BW_METRIC slept 4 s'",
      ].join("\n") + "\n",
    );
    base = { configDir: join(root, "config"), databaseUrl: schema.url, secrets: new SecretBox(randomBytes(32)) };
    server = await open("server", false);
  }, 60_000);

  afterAll(async () => {
    for (const e of engines) await e.close().catch(() => {});
    await schema?.drop();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  async function open(dir: string, work = true): Promise<Engine> {
    const engine = await Engine.open({ ...base, dataDir: join(root, dir), work, worker: { renewMs: 500, sweepMs: 200 } });
    engines.push(engine);
    return engine;
  }

  /** A prepared execution of a local session, its run begun by the server and launched by a worker in `first`; that worker then stops. */
  async function runHandedBack(first: string): Promise<{ id: string; runDir: string }> {
    const worker = await open(first);
    const session = await server.createSession({ config: { provider: { class: "local", name: "here" }, default: {} } } as Parameters<
      Engine["createSession"]
    >[0]);
    const { id } = await server.createExecution(session.id, { tool: "counted", workload: "run" });
    await server.prepare(id);
    await server.startStep("run", id);
    const runDir = join(root, first, "work", session.id, id, "run-1");
    const until = Date.now() + 20_000;
    while (!existsSync(join(runDir, "step.pid")) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(join(runDir, "step.pid"))).toBe(true);
    // It stops and hands the step back; the step goes on, detached, in its data dir.
    await worker.close();
    return { id, runDir };
  }

  /** How many times the host launched the run script of execution `id`. */
  const launches = (id: string) => (existsSync(counter) ? readFileSync(counter, "utf8").split(id).length - 1 : 0);

  async function ended(id: string): Promise<Awaited<ReturnType<Engine["getExecution"]>>> {
    const until = Date.now() + 40_000;
    while ((await server.getExecution(id)).state === "running" && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    return server.getExecution(id);
  }

  it("is not launched again by a worker with another data dir: the attempt ends lost, and the first launch stays the only one", async () => {
    const { id, runDir } = await runHandedBack("a");
    const taker = await open("b");
    const done = await ended(id);
    await taker.close();
    expect(done.state).toBe("run_failed");
    expect(done.steps.at(-1)?.error).toMatch(
      /^run was lost with the process that drove it: it ran on local in \S+:\S+\/a, which this process \(\S+\/b\) cannot reach/,
    );
    // The first launch ends on its own, where it began; nothing ran in the taker's data dir.
    const until = Date.now() + 20_000;
    // step.rc is created, then written (`echo > step.rc`): wait for its content, not its name.
    const rcWritten = () => existsSync(join(runDir, "step.rc")) && readFileSync(join(runDir, "step.rc"), "utf8").endsWith("\n");
    while (!rcWritten() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(join(runDir, "step.rc"), "utf8")).toMatch(/^0 /);
    expect(existsSync(join(root, "b", "work"))).toBe(false);
    expect(launches(id)).toBe(1);
  }, 90_000);

  it("is re-attached by a worker with the same data dir: it completes, launched once", async () => {
    const { id } = await runHandedBack("c");
    const taker = await open("c");
    const done = await ended(id);
    await taker.close();
    expect(done.state).toBe("completed");
    expect(done.metrics).toEqual([expect.objectContaining({ name: "slept", value: 4 })]);
    expect(launches(id)).toBe(1);
  }, 90_000);
});
