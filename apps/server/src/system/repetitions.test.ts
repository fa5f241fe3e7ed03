import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

interface Figure {
  execution_id: string;
  tags: Record<string, string>;
  n: number;
  mean: number;
  ci_low: number;
  ci_high: number;
  values: number[];
  ratio: number | null;
  ratio_ci_low: number | null;
  ratio_ci_high: number | null;
  p_value: number | null;
  significant: boolean;
  verdict: string;
}

// Repeated runs and their comparison, end to end on the local provider with the real sysbench
// (installed by the prepare step where missing, as the service type allows).
describe("repetitions with statistics, and a comparison that finds the slower side", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    fx = await openFixture();
    writeFileSync(join(fx.configDir, "providers", "local-install.yaml"), "provider:\n  class: local\n  name: local-install\ndefault:\n  allow_install: true\n");
    // A figure that never settles: each repetition reports its own number (1, 2, 3...).
    mkdirSync(join(fx.configDir, "benchmarks"), { recursive: true });
    writeFileSync(
      join(fx.configDir, "benchmarks", "counter.yaml"),
      'id: counter\ntool_name: Counter\nparser: keyvalue\nworkloads:\n  - id: repetition\n    categories: [test]\n    scripts:\n      run: echo "BW_METRIC value $BW_REPETITION units"\n',
    );
    api = request(fx.app);
  });
  afterAll(() => fx.close());

  async function ranIn(body: Record<string, unknown>): Promise<string> {
    const session = (await api.post("/api/v1/sessions/").send({ provider: "local-install", service: "default" }).expect(200)).body.id;
    const id = (await api.post(`/api/v1/sessions/${session}/executions/`).send(body).expect(200)).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    const run = await api.post(`/api/v1/executions/${id}/run`);
    expect(run.status, run.text).toBe(200);
    return id;
  }

  it("runs sysbench cpu 5 times with 2 threads and 5 with 1, and calls the 1-thread side significantly worse at about half", async () => {
    // Two threads on this 2-core machine: the 1-thread side is known to be slower.
    const fast = await ranIn({
      tool: "sysbench",
      workload: "cpu_10000",
      params: { threads: "2", events: 1000 },
      repetitions: { count: 5 },
    });
    const slow = await ranIn({
      tool: "sysbench",
      workload: "cpu_10000",
      params: { threads: "1", events: 1000 },
      repetitions: { count: 5 },
    });

    const record = (await api.get(`/api/v1/executions/${fast}`).expect(200)).body;
    expect(record.repetitions).toEqual({ count: 5 });
    const eps = record.metrics.find((m: { name: string }) => m.name === "events_per_second");
    expect(eps.values).toHaveLength(5);
    expect(eps.stats).toMatchObject({ n: 5 });
    expect(eps.value).toBeCloseTo(eps.values.reduce((a: number, b: number) => a + b, 0) / 5, 6);
    expect(eps.stats.ci_low).toBeLessThanOrEqual(eps.value);
    expect(eps.stats.ci_high).toBeGreaterThanOrEqual(eps.value);
    // Every repetition's raw figure is kept, numbered, in the export.
    const rows = parse((await api.get(`/api/v1/executions/metrics?format=csv&session_id=${record.session_id}`).expect(200)).text, {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(rows.filter((r) => r.metric === "events_per_second").map((r) => r.repetition)).toEqual(["1", "2", "3", "4", "5"]);
    expect(JSON.parse(rows[0].parameters)).toEqual({ threads: "2", events: 1000 });

    const comparison = (await api.get(`/api/v1/executions/compare?ids=${fast},${slow}`).expect(200)).body;
    expect(comparison.baseline).toBe(fast);
    const metric = comparison.metrics.find((m: { name: string }) => m.name === "events_per_second");
    expect(metric.better).toBe("higher");
    const [base, other] = metric.figures as Figure[];
    expect(base).toMatchObject({ execution_id: fast, n: 5, verdict: "baseline", tags: { threads: "2" } });
    expect(other).toMatchObject({ execution_id: slow, n: 5, significant: true, verdict: "worse", tags: { threads: "1" } });
    expect(other.mean).toBeLessThan(base.mean);
    expect(other.ratio!).toBeGreaterThan(0.3);
    expect(other.ratio!).toBeLessThan(0.85);
    expect(other.ratio_ci_low!).toBeLessThan(other.ratio!);
    expect(other.ratio_ci_high!).toBeGreaterThan(other.ratio!);
    expect(other.p_value!).toBeLessThan(0.05);
    // Latency is lower-is-better. An event takes as long on one thread as on two (one core each),
    // so its verdict may be no_difference; where it is significant, a higher latency reads worse.
    const latency = comparison.metrics.find((m: { name: string }) => m.name === "latency_avg_ms");
    expect(latency.better).toBe("lower");
    const slowLatency = latency.figures[1] as Figure;
    expect(slowLatency.verdict).toBe(slowLatency.significant ? (slowLatency.ratio! > 1 ? "worse" : "better") : "no_difference");
    // The other way round, the faster side is better.
    const back = (await api.get(`/api/v1/executions/compare?ids=${fast},${slow}&baseline=${slow}`).expect(200)).body;
    expect(back.metrics.find((m: { name: string }) => m.name === "events_per_second").figures[0].verdict).toBe("better");
    expect(comparison.executions.map((e: { params: unknown }) => e.params)).toEqual([
      { threads: "2", events: 1000 },
      { threads: "1", events: 1000 },
    ]);
    expect(comparison.executions[0].machines[0].facts).toBeDefined();
  }, 180_000);

  it("repeats until the main metric settles: at least min, at most max times", async () => {
    const settles = await ranIn({
      tool: "idle",
      workload: "idle5",
      params: { seconds: 0.1 },
      repetitions: { until_cv: 0.5, min: 2, max: 6 },
    });
    const settled = (await api.get(`/api/v1/executions/${settles}`).expect(200)).body;
    expect(settled.repetitions).toEqual({ until_cv: 0.5, min: 2, max: 6 });
    expect(settled.metrics[0].stats.n).toBe(2);
    const log = (await api.get(`/api/v1/executions/${settles}/logs?step=run`).expect(200)).text;
    expect(log.match(/^=== run, repetition \d+ of at most 6 ===$/gm)).toEqual([
      "=== run, repetition 1 of at most 6 ===",
      "=== run, repetition 2 of at most 6 ===",
    ]);

    const never = await ranIn({ tool: "counter", workload: "repetition", repetitions: { until_cv: 0.01, min: 2, max: 3 } });
    const unsettled = (await api.get(`/api/v1/executions/${never}`).expect(200)).body.metrics[0];
    expect(unsettled.values).toEqual([1, 2, 3]);
    expect(unsettled.stats.n).toBe(3);
  }, 60_000);

  it("refuses a bad plan with a 400 that names the field, and creates nothing", async () => {
    const session = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
    const before = await fx.engine.store.snapshot();
    for (const repetitions of [
      { count: 0 },
      { count: 101 },
      { count: 3, until_cv: 0.1 },
      { until_cv: 0 },
      { until_cv: 0.1, min: 5, max: 3 },
      {},
      { times: 3 },
    ]) {
      const res = await api.post(`/api/v1/sessions/${session}/executions/`).send({ tool: "idle", workload: "idle0", repetitions });
      expect(res.status, JSON.stringify(repetitions)).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(res.body.errors)).toMatch(/repetitions/);
    }
    expect(await fx.engine.store.snapshot()).toBe(before);
  });

  it("leaves a run without repetitions as it always was: one figure per metric, no stats", async () => {
    const id = await ranIn({ tool: "idle", workload: "idle5", params: { seconds: 0.05 } });
    const record = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(record).not.toHaveProperty("repetitions");
    expect(record.metrics).toHaveLength(1);
    expect(record.metrics[0]).not.toHaveProperty("stats");
    expect(record.metrics[0]).not.toHaveProperty("values");
  });
});
