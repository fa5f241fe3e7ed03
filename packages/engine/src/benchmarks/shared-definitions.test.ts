import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../engine.js";
import { SecretBox } from "../secrets/secret-box.js";
import { storeSnapshot } from "../test-access.js";

// Issue 38 point 2, acceptance 1: on PostgreSQL, two servers that run no steps and a worker. A
// definition written through one is the other's at once and the worker runs it; a second version
// written while the first runs leaves that run on the first, and the next execution on the second.
describe("benchmark definitions shared through the database", () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let dataDir: string;
  let one: Engine;
  let other: Engine;
  let worker: Engine;
  /** The first version's run says it started through one FIFO and waits on the other: the test holds it running. */
  let started: string;
  let release: string;

  beforeAll(async () => {
    schema = await createTestSchema();
    dataDir = mkdtempSync(join(tmpdir(), "bw-shared-definitions-"));
    mkdirSync(join(dataDir, "config", "benchmarks"), { recursive: true });
    started = join(dataDir, "started.fifo");
    release = join(dataDir, "release.fifo");
    execFileSync("mkfifo", [started, release]);
    const options = { dataDir, configDir: join(dataDir, "config"), databaseUrl: schema.url, secrets: new SecretBox(randomBytes(32)) };
    one = await Engine.open({ ...options, work: false });
    other = await Engine.open({ ...options, work: false });
    worker = await Engine.open({ ...options });
  }, 60_000);

  afterAll(async () => {
    await one?.close();
    await other?.close();
    await worker?.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const definition = (run: string) => ({
    id: "team-echo",
    tool_name: "Echo",
    parser: "keyvalue",
    metrics: { answer: { unit: "1", better: "higher" } },
    workloads: [{ id: "answer", scripts: { run } }],
  });

  it("refuses each bad definition with every problem in one error, changing no table", async () => {
    const before = await storeSnapshot(one);
    const bad = {
      ...definition("if then ("),
      parser: "nope",
      metrics: { answer: { better: "higher" } },
      workloads: [
        { id: "answer", scripts: { run: "if then (" } },
        { id: "answer", scripts: { run: "true" } },
      ],
    };
    await expect(one.putBenchmark("team-echo", bad)).rejects.toMatchObject({
      code: "invalid_definition",
      extras: {
        errors: expect.arrayContaining([
          expect.objectContaining({ path: "/body/parser" }),
          expect.objectContaining({ path: "/body/metrics/answer/unit" }),
          expect.objectContaining({ path: "/body/workloads/1/id" }),
          expect.objectContaining({ path: "/body/workloads/0/scripts/run" }),
        ]),
      },
    });
    await expect(one.putBenchmark("idle", { ...definition("true"), id: "idle" })).rejects.toMatchObject({ code: "read_only" });
    await expect(one.deleteBenchmark("sysbench")).rejects.toMatchObject({ code: "read_only" });
    expect(await storeSnapshot(one)).toBe(before);
  });

  it("is listed by the other server at once, run by the worker, and a run keeps the version it recorded", async () => {
    const first = await one.putBenchmark("team-echo", definition(`echo started > '${started}'; read -r _ < '${release}'; bw_metric answer 1 1`), "alice");
    expect(first.created).toBe(true);
    expect(first.view).toMatchObject({ id: "team-echo", source: "api", version: 1, read_only: false, updated_by: "alice" });
    expect(await other.listBenchmarks()).toContainEqual(expect.objectContaining({ id: "team-echo", version: 1, digest: first.view.digest }));

    const session = await other.createSession({ provider: "local" });
    const a = await other.createExecution(session.id, { tool: "team-echo", workload: "answer" });
    await other.waitForStep(await other.startStep("prepare", a.id));
    const running = other.startStep("run", a.id).then((attempt) => other.waitForStep(attempt));
    // The run has begun on the worker: it said so.
    expect((await readFile(started, "utf8")).trim()).toBe("started");

    const second = await one.putBenchmark("team-echo", definition("bw_metric answer 2 1"));
    expect(second).toMatchObject({ created: false, view: { version: 2 } });
    expect(second.view.digest).not.toBe(first.view.digest);
    expect(await other.getBenchmark("team-echo")).toMatchObject({ version: 2, digest: second.view.digest });
    await writeFile(release, "go\n");
    await running;

    const ranFirst = await one.getExecution(a.id);
    expect(ranFirst.state).toBe("completed");
    expect(ranFirst.provenance).toMatchObject({ definition_digest: first.view.digest, definition_version: 1 });
    expect(ranFirst.metrics).toContainEqual(expect.objectContaining({ name: "answer", value: 1 }));

    const b = await other.createExecution(session.id, { tool: "team-echo", workload: "answer" });
    await other.waitForStep(await other.startStep("prepare", b.id));
    await other.waitForStep(await other.startStep("run", b.id));
    const ranSecond = await one.getExecution(b.id);
    expect(ranSecond.provenance).toMatchObject({ definition_digest: second.view.digest, definition_version: 2 });
    expect(ranSecond.metrics).toContainEqual(expect.objectContaining({ name: "answer", value: 2 }));

    // Deleted, its versions stay readable; new executions cannot choose it.
    await one.deleteBenchmark("team-echo");
    expect((await other.listBenchmarkVersions("team-echo")).map((v) => [v.version, v.digest, v.deleted !== null])).toEqual([
      [2, second.view.digest, true],
      [1, first.view.digest, true],
    ]);
    expect((await other.getBenchmarkVersion("team-echo", 1)).definition).toMatchObject({ id: "team-echo" });
    await expect(other.createExecution(session.id, { tool: "team-echo", workload: "answer" })).rejects.toMatchObject({ code: "unknown_tool" });
    await other.deleteSession(session.id);
  }, 120_000);
});
