import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@benchwright/sdk";
import { trendToolDefinition } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

// A user's tool whose speed and version the test sets through files: each run prints the speed
// file's number (the keyvalue parser), and `scripts.version` the version file's content (the
// machines' fact tool_version, read at prepare). Twelve executions on the local provider make one
// series: six at about 100, six at about 80 after a new version.

interface Point {
  seq: number;
  mean: number;
  n: number;
  execution_id: string;
  facts: Record<string, string>;
}

describe("series over time and the changes found in them", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let dir: string;
  let sessionId: string;
  let server: Server | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bw-trend-"));
    chmodSync(dir, 0o755);
    fx = await openFixture({ engine: { changeChecker: { intervalMs: 200 } } });
    api = request(fx.app);
    writeFileSync(join(fx.configDir, "benchmarks", "trend.yaml"), trendToolDefinition(dir));
    await api.get("/api/v1/benchmarks/trend").expect(200);
    sessionId = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
  });

  afterAll(async () => {
    server?.close();
    if (sessionId) await api.delete(`/api/v1/sessions/${sessionId}`);
    await fx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function measure(speed: number, version: string): Promise<string> {
    writeFileSync(join(dir, "speed"), String(speed));
    writeFileSync(join(dir, "version"), version);
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "trend", workload: "steady" }).expect(200)).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    const run = await api.post(`/api/v1/executions/${id}/run`);
    expect(run.status, run.text).toBe(200);
    return id;
  }

  it("records a point per run and finds the one regression, with the fact that changed", async () => {
    const before = [100, 102, 97, 101, 99, 103];
    const after = [80, 82, 77, 81, 79, 83];
    const ids: string[] = [];
    for (const s of before) ids.push(await measure(s, "1.0"));
    for (const s of after) ids.push(await measure(s, "2.0"));

    const list = (await api.get("/api/v1/series/?tool=trend&metric=speed").expect(200)).body;
    expect(list).toHaveLength(1);
    const series = list[0];
    expect(series).toMatchObject({
      benchmark: { tool: "trend", workload: "steady", params: {} },
      metric: { name: "speed", tags: {}, unit: "ops/s", better: "higher" },
      target: { provider: "local", service_type: "default" },
      points: 12,
    });

    const points: Point[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get(`/api/v1/series/${series.id}/points?limit=5${cursor ? `&cursor=${cursor}` : ""}`).expect(200);
      points.push(...page.body);
      cursor = page.headers["x-next-cursor"];
    } while (cursor);
    expect(points.map((p) => [p.seq, p.mean, p.n, p.execution_id])).toEqual([...before, ...after].map((s, i) => [i + 1, s, 1, ids[i]]));
    expect(points.map((p) => p.facts.tool_version)).toEqual([...before.map(() => "1.0"), ...after.map(() => "2.0")]);

    // The checker runs in the server: wait for it to look at the last point.
    let changes: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100 && changes.length === 0; i++) {
      changes = (await api.get(`/api/v1/series/${series.id}/changes`).expect(200)).body;
      if (changes.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    // And a little longer: no second record of it comes.
    await new Promise((r) => setTimeout(r, 500));
    changes = (await api.get(`/api/v1/series/${series.id}/changes`).expect(200)).body;
    expect(changes).toHaveLength(1);
    const change = changes[0];
    expect(change).toMatchObject({ series_id: series.id, direction: "regression", state: "open", series: { metric: { name: "speed", better: "higher" } } });
    expect(Math.abs((change.seq as number) - 7)).toBeLessThanOrEqual(1);
    expect(change.size as number).toBeLessThan(-0.1);
    expect((change.facts_changed as Array<{ fact: string }>).map((f) => f.fact)).toContain("tool_version");

    expect((await api.get(`/api/v1/changes/${change.id}`).expect(200)).body).toEqual(change);
    expect((await api.get("/api/v1/changes/?direction=regression").expect(200)).body.map((c: { id: string }) => c.id)).toContain(change.id);
    const acknowledged = (await api.post(`/api/v1/changes/${change.id}/acknowledge`).expect(200)).body;
    expect(acknowledged.state).toBe("acknowledged");
    expect((await api.get(`/api/v1/series/${series.id}`).expect(200)).body.open_changes).toBe(0);
  }, 180_000);

  it("compares the latest level with a baseline, and forgets it", async () => {
    const [series] = (await api.get("/api/v1/series/?tool=trend").expect(200)).body;
    const set = (await api.put(`/api/v1/series/${series.id}/baseline`).send({ from: 1, to: 6 }).expect(200)).body;
    expect(set.baseline).toMatchObject({ from: 1, to: 6, n: 6 });
    expect(set.baseline.mean).toBeCloseTo(100.33, 1);
    expect(set.latest_vs_baseline.direction).toBe("regression");
    const refused = await api.put(`/api/v1/series/${series.id}/baseline`).send({ from: 5, to: 40 }).expect(400);
    expect(refused.body.code).toBe("validation_failed");
    await api.delete(`/api/v1/series/${series.id}/baseline`).expect(204);
    expect((await api.get(`/api/v1/series/${series.id}`).expect(200)).body.baseline).toBeNull();
    await api.get("/api/v1/series/00000000-0000-4000-8000-000000000000").expect(404);
  });

  it("reads the same through the SDK", async () => {
    server = fx.app.listen(0, "127.0.0.1");
    await new Promise((r) => server!.once("listening", r));
    const bw = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    const [series] = await bw.listSeries({ tool: "trend", metric: "speed" });
    expect(await bw.getSeries(series.id)).toEqual(series);
    const page = await bw.listSeriesPointsPage(series.id, { limit: 10 });
    expect(page.items.map((p) => p.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page.nextCursor).toBeDefined();
    expect((await bw.listSeriesPoints(series.id)).length).toBe(12);
    expect((await bw.setSeriesBaseline(series.id, { from: 2 })).baseline).toMatchObject({ from: 2, to: 2, n: 1 });
    await bw.clearSeriesBaseline(series.id);
    const [change] = await bw.listSeriesChanges(series.id);
    expect((await bw.listChanges({ seriesId: series.id, state: "acknowledged", direction: "regression" })).map((c) => c.id)).toEqual([change.id]);
    expect(await bw.listChanges({ seriesId: series.id, state: "open" })).toEqual([]);
    expect(await bw.getChange(change.id)).toEqual(change);
    expect((await bw.acknowledgeChange(change.id)).state).toBe("acknowledged");
  });
});
