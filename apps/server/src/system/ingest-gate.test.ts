import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// Issue 39, points 3 and 4: a harness's own output becomes points of series (with the branch and
// commit it measured), which the change checker, alerts and the gate read as any run's; a file
// an adapter cannot read is one 400 naming where, and nothing is stored.

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A level with a small, fixed wobble (±0.5%): the same figures on every run. */
const level = (mean: number, i: number) => mean * (1 + 0.005 * Math.sin(i * 1.7));
const generic = (metric: string, values: number[]) => JSON.stringify([{ metric, values, unit: "ms", better: "lower" }]);
const sample = (mean: number, i: number) => [0, 1, 2, 3, 4].map((j) => level(mean, i * 5 + j));

let fx: Fixture;
let api: ReturnType<typeof request>;
let receiver: Server;
const received: string[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(String(req.headers["idempotency-key"]));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  fx = await openFixture({ engine: { webhooks: { pollMs: 50, retryDelaysMs: [100], allowPrivate: true } } });
  api = request(fx.app);
});
afterAll(async () => {
  await fx?.close();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

const ingest = (body: Record<string, unknown>) => api.post("/api/v1/ingests/").send(body);

describe("POST /ingests/", () => {
  it("refuses a file its adapter cannot read: one 400 naming the pointer or the line, nothing stored", async () => {
    const before = await storeSnapshot(fx.engine);
    const json = await ingest({ adapter: "hyperfine", output: '{"results": [{"command": "a", "times": [0.1, "x"]}, {"times": []}]}' });
    expect(json.status, json.text).toBe(400);
    expect(json.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(json.body.errors).toEqual([
      { path: "/body/output/results/0/times/1", message: "must be a finite number" },
      { path: "/body/output/results/1/command", message: "must be a non-empty string" },
      { path: "/body/output/results/1/times", message: "must hold at least one value" },
    ]);
    const text = await ingest({ adapter: "go_test", output: "goos: linux\nBenchmarkA-2   100   12 ns/op\nBenchmarkB-2   100   fast ns/op\n" });
    expect(text.status, text.text).toBe(400);
    expect(text.body.errors).toEqual([{ path: "/body/output", message: "line 3: does not read as a benchmark's result: BenchmarkB-2   100   fast ns/op" }]);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("makes 20 points with a step in them one change and one webhook delivery; the points carry their branch and commit", async () => {
    await api
      .post("/api/v1/webhooks/")
      .send({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ["regression"] })
      .expect(201);
    let seriesId = "";
    for (let i = 0; i < 20; i++) {
      const res = await ingest({
        adapter: "generic",
        benchmark: "step",
        target: "ci-runner",
        branch: "main",
        commit: `c${String(i).padStart(3, "0")}`,
        facts: { kernel: "6.1.0", cpu_model: "test cpu" },
        output: generic("parse_time", sample(i < 10 ? 100 : 112, i)),
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ adapter: "generic", benchmark: "step", target: "ci-runner", branch: "main", commit: `c${String(i).padStart(3, "0")}` });
      expect(res.body.points).toEqual([expect.objectContaining({ seq: i + 1, n: 5, metric: { name: "parse_time", tags: {}, unit: "ms", better: "lower" } })]);
      seriesId = res.body.points[0].series_id;
    }
    const series = (await api.get(`/api/v1/series/${seriesId}`).expect(200)).body;
    expect(series).toMatchObject({ benchmark: { tool: "generic", workload: "step" }, target: { provider: "external", service_type: "ci-runner" }, points: 20 });
    const points = (await api.get(`/api/v1/series/${seriesId}/points?branch=main`).expect(200)).body;
    expect(points).toHaveLength(20);
    expect(points[3]).toMatchObject({ execution_id: null, branch: "main", commit: "c003", facts: { kernel: "6.1.0", cpu_model: "test cpu" } });
    expect((await api.get(`/api/v1/series/${seriesId}/points?branch=feature`).expect(200)).body).toEqual([]);

    const change = await until("the change", async () => {
      const changes = (await api.get(`/api/v1/series/${seriesId}/changes`).expect(200)).body;
      return changes.length > 0 ? changes : undefined;
    });
    expect(change).toEqual([expect.objectContaining({ direction: "regression", seq: 11, execution_id: null })]);
    await until("the delivery", async () => (received.length > 0 ? received : undefined));
    // Past every point's check and a retry's delay: still one change, told once.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await api.get(`/api/v1/series/${seriesId}/changes`).expect(200)).body).toHaveLength(1);
    expect(received).toEqual([`change:${change[0].id}`]);
  });
});

describe("POST /gates/", () => {
  it("gates a feature branch's first run against main's history: a 10% slowdown is worse, no change passes", async () => {
    for (let i = 0; i < 8; i++)
      (await ingest({ adapter: "generic", benchmark: "gate", branch: "main", output: generic("render", sample(50, i)) })).status === 201 || expect.fail();
    const noChange = (await ingest({ adapter: "generic", benchmark: "gate", branch: "feature/a", output: generic("render", sample(50, 9)) }).expect(201)).body;
    const same = (
      await api
        .post("/api/v1/gates/")
        .send({ ingest_id: noChange.id, baseline: { fallback_branch: "main" } })
        .expect(200)
    ).body;
    expect(same).toMatchObject({ outcome: "pass", worse: 0, inconclusive: 0, branch: "feature/a", margin: 0.05 });
    expect(same.cells).toEqual([expect.objectContaining({ verdict: "equivalent", baseline: expect.objectContaining({ branch: "main", points: 8 }) })]);

    const slower = (await ingest({ adapter: "generic", benchmark: "gate", branch: "feature/b", output: generic("render", sample(55, 9)) }).expect(201)).body;
    const gate = (
      await api
        .post("/api/v1/gates/")
        .send({ ingest_id: slower.id, baseline: { fallback_branch: "main" } })
        .expect(200)
    ).body;
    expect(gate).toMatchObject({ outcome: "worse", worse: 1 });
    const [cell] = gate.cells;
    expect(cell.verdict).toBe("worse");
    expect(cell.ratio).toBeCloseTo(1.1, 2);
    expect(cell.ratio_ci_low).toBeGreaterThan(1.05);
    expect(cell.sentence).toContain("worse than main's last 8 points on render");

    // Without a base branch to fall back on, a branch with no history cannot be gated.
    const alone = (await api.post("/api/v1/gates/").send({ ingest_id: slower.id }).expect(200)).body;
    expect(alone).toMatchObject({ outcome: "inconclusive", inconclusive: 1, cells: [expect.objectContaining({ verdict: "inconclusive", baseline: null })] });
  });

  it("is a 404 for an ingest that does not exist, and a 400 for a margin out of range", async () => {
    const missing = await api.post("/api/v1/gates/").send({ ingest_id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status, missing.text).toBe(404);
    const bad = await api.post("/api/v1/gates/").send({ ingest_id: "00000000-0000-4000-8000-000000000000", margin: 2 });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: "/body/margin" })]);
  });

  it("gates an ingest or executions, exactly one; a baseline of executions only for executions, without a branch's settings; 404 for an execution not there", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const before = await storeSnapshot(fx.engine);
    const neither = await api.post("/api/v1/gates/").send({ baseline: { execution_ids: [id], last: 5, fallback_branch: "main" } });
    expect(neither.status, neither.text).toBe(400);
    expect(neither.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(neither.body.errors).toEqual([
      { path: "/body", message: "must name exactly one of ingest_id and execution_ids" },
      { path: "/body/baseline/execution_ids", message: "compares executions with executions: give execution_ids" },
      { path: "/body/baseline/fallback_branch", message: "is a branch's history: not with baseline.execution_ids" },
      { path: "/body/baseline/last", message: "is a branch's history: not with baseline.execution_ids" },
    ]);
    const both = await api.post("/api/v1/gates/").send({ ingest_id: id, execution_ids: [id] });
    expect(both.status, both.text).toBe(400);
    expect(both.body.errors).toEqual([{ path: "/body", message: "must name exactly one of ingest_id and execution_ids" }]);
    const missing = await api.post("/api/v1/gates/").send({ execution_ids: [id] });
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body.detail).toBe(`No execution ${id}`);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });
});

// Point 3: the execution and plan-run views say which branch and commit a run measured (a plan's
// cells' executions too, made by its driver), and say nothing of either when no client named them.
describe("branch and commit on runs", () => {
  const commit = "3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d";

  it("shows them on an execution and in its session, and not on one created without them", async () => {
    const session = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id as string;
    const made = (await api.post(`/api/v1/sessions/${session}/executions/`).send({ tool: "idle", workload: "idle0", branch: "feature/a", commit }).expect(200))
      .body;
    expect(made).toMatchObject({ branch: "feature/a", commit });
    expect((await api.get(`/api/v1/executions/${made.id}`).expect(200)).body).toMatchObject({ branch: "feature/a", commit });
    const plain = (await api.post(`/api/v1/sessions/${session}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body;
    const listed = (await api.get(`/api/v1/sessions/${session}`).expect(200)).body.executions as Array<Record<string, unknown>>;
    expect(listed.find((e) => e.id === made.id)).toMatchObject({ branch: "feature/a", commit });
    const other = listed.find((e) => e.id === plain.id)!;
    expect("branch" in other || "commit" in other).toBe(false);
    await api.delete(`/api/v1/sessions/${session}`).expect((r) => expect(r.status).toBeLessThan(300));
  });

  it("shows them on a plan run and on its cells' executions", async () => {
    const body = { targets: [{ label: "here", provider: "local" }], benchmarks: [{ tool: "idle", workload: "idle0" }] };
    const plan = (await api.post("/api/v1/plans/").send(body).expect(201)).body.id as string;
    const started = (await api.post(`/api/v1/plans/${plan}/runs/`).send({ branch: "feature/a", commit }).expect(202)).body;
    expect(started).toMatchObject({ branch: "feature/a", commit });
    const run = await until(
      "the run's end",
      async () => {
        const r = (await api.get(`/api/v1/plans/${plan}/runs/${started.id}`).expect(200)).body;
        return ["completed", "failed", "cancelled"].includes(r.state) ? r : undefined;
      },
      120_000,
    );
    expect(run).toMatchObject({ state: "completed", branch: "feature/a", commit });
    expect((await api.get(`/api/v1/executions/${run.cells[0].execution_id}`).expect(200)).body).toMatchObject({ branch: "feature/a", commit });
    const plain = (await api.post(`/api/v1/plans/${plan}/runs/`).expect(202)).body;
    expect("branch" in plain || "commit" in plain).toBe(false);
    await until(
      "the second run's end",
      async () => {
        const r = (await api.get(`/api/v1/plans/${plan}/runs/${plain.id}`).expect(200)).body;
        return ["completed", "failed", "cancelled"].includes(r.state) ? r : undefined;
      },
      120_000,
    );
  }, 300_000);
});
