import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanReport } from "@benchwright/contract";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import { parse } from "csv-parse/sync";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { runPlan } from "../test-support/plan-run.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// The measuring tests of this file (sysbench, one thread against two) share it so that they never
// run at once: each holds both cores at the highest CPU weight while it measures, and two of them
// together would each see one core.

/** cgroup v1's highest `cpu.shares`. */
const MOST = 262_144;

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
// (installed by the prepare step where missing, as the service type allows); the sysbench runs go
// through the harness's sshd in a CPU group of the highest weight, so that other work on a busy
// machine does not decide whether two threads beat one (the kernel's per-session autogroups would
// give a session's two threads no more than another session's one).
describe("repetitions with statistics, and a comparison that finds the slower side", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let host: SshdHarness;

  beforeAll(async () => {
    host = await startSshd({ cpuShares: MOST });
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
  afterAll(async () => {
    await fx?.close();
    await host?.stop();
  });

  async function ranIn(body: Record<string, unknown>): Promise<string> {
    const where =
      body.tool === "sysbench"
        ? {
            config: {
              provider: { class: "existing-vm", name: "weighted" },
              vms: { host: host.host, port: host.port, vm_user: host.username, ssh_private_key: host.privateKey },
            },
          }
        : { provider: "local-install", service: "default" };
    const session = (await api.post("/api/v1/sessions/").send(where).expect(200)).body.id;
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
    const before = await storeSnapshot(fx.engine);
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
    expect(await storeSnapshot(fx.engine)).toBe(before);
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

type Cell = PlanReport["cells"][number];

type ReportFigure = Cell["metrics"][number]["figures"][number];

// Issue 24, acceptance 1: a plan whose answer is known. Two existing-vm hosts, both this machine
// through the harness's sshd, one of them given one CPU's worth of time (its sshd's cgroup has a
// CPU bandwidth of one CPU, which its sessions' processes share, on whichever CPU is free: pinned
// to one CPU instead, its single thread ran up to 12% slower than the other host's on a busy
// machine): sysbench cpu on one thread runs alike on both; on two threads the host with two CPUs
// does about twice the work. The cells run one at a time, so the
// two hosts never compete for this machine's cores; and each sshd runs in a CPU group of the
// highest weight, so that other work on a busy machine does not decide the figures: the kernel
// shares the CPUs between sessions (autogroups), and a session's two threads would otherwise get
// no more than another session's one. While a cell measures (about half a minute in all), other
// work on this machine waits, as it would on a benchmark's own machine.
describe("a plan with a known answer: one CPU against two", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let hosts: { one: SshdHarness; two: SshdHarness };
  let report: PlanReport;

  const existingVm = (label: string, sshd: SshdHarness) => ({
    label,
    config: {
      provider: { class: "existing-vm", name: label },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  });

  beforeAll(async () => {
    const [one, two] = await Promise.all([startSshd({ cpuShares: MOST, cpuLimit: 1 }), startSshd({ cpuShares: MOST })]);
    hosts = { one, two };
    fx = await openFixture();
    api = request(fx.app);
    const plan = await api.post("/api/v1/plans/").send({
      // The one-CPU host is the baseline: the other's verdicts read "better".
      targets: [existingVm("one-cpu", one), existingVm("two-cpus", two)],
      // A fixed number of events (about a second's work on one core here): the rate is the figure.
      benchmarks: [{ tool: "sysbench", workload: "cpu_10000", params: { threads: ["1", "2"], events: 1000 } }],
      repetitions: { count: 5 },
      concurrency: { per_target: 1, overall: 1 },
      // Two executions of the same one-thread work, run seconds apart on this shared machine, were
      // seen to differ by up to 5.8% with every repetition agreeing (Welch's test then calls it
      // significant): a difference under 10% is not one this test's machine can tell.
      min_difference: 0.1,
    });
    expect(plan.status, plan.text).toBe(201);
    const run = await runPlan(api, plan.body.id, 240_000);
    expect(run.state, JSON.stringify(run.cells.map((c) => c.error))).toBe("completed");
    report = (await api.get(`/api/v1/plans/${plan.body.id}/runs/${run.id}/report`).expect(200)).body;
  }, 300_000);

  afterAll(async () => {
    await fx?.close();
    await Promise.all([hosts?.one.stop(), hosts?.two.stop()]);
  });

  /** The cell of a thread count, and the two hosts' figures on its main metric. */
  const cellOf = (threads: string) => {
    const cell = report.cells.find((c) => c.params.threads === threads)!;
    const main = cell.metrics[0];
    const figure = (target: string) => main.figures.find((f) => f.target === target)!;
    return { cell, main, one: figure("one-cpu"), two: figure("two-cpus") };
  };
  /** What the test saw, for a failure's message. */
  const seen = (f: ReportFigure) => `${f.target}: mean ${f.mean.toFixed(1)}, ratio ${f.ratio?.toFixed(3)}, p ${f.p_value?.toFixed(4)}, ${f.verdict}`;

  it("ranks the host with two CPUs first on two threads, with a significant verdict", () => {
    const { cell, main, one, two } = cellOf("2");
    expect(cell.main_metric).toBe("events_per_second");
    expect(main).toMatchObject({ better: "higher", tags: { threads: "2" } });
    expect([one.n, two.n]).toEqual([5, 5]);
    expect(two.rank, seen(two)).toBe(1);
    expect(one.rank, seen(two)).toBe(2);
    expect(one.verdict).toBe("baseline");
    expect(two.verdict, seen(two)).toBe("better");
    expect(two.p_value!).toBeLessThan(1 - report.confidence);
    expect(two.ratio_ci_low!, seen(two)).toBeGreaterThan(1);
  });

  // Each host's five figures lie within about 0.3% of each other, so Welch's test alone sees a
  // drift of 1-6% between the two executions (run some seconds apart on a busy machine) as
  // significant; the plan's min_difference reads such a small one as none.
  it("finds no significant difference on one thread", () => {
    const { main, two } = cellOf("1");
    expect(main).toMatchObject({ name: "events_per_second", tags: { threads: "1" } });
    expect(two.n).toBe(5);
    expect(report.min_difference).toBe(0.1);
    expect(two.verdict, seen(two)).toBe("no_difference");
    expect(Math.abs(two.ratio! - 1), seen(two)).toBeLessThan(0.1);
  });

  it("ranks the hosts the same way by the geometric mean of the cells' ratios", () => {
    const [first, second] = report.targets;
    expect([first.target, first.rank, second.target, second.rank]).toEqual(["two-cpus", 1, "one-cpu", 2]);
    expect(first.cells).toBe(2);
    // The baseline's own ratios are all 1; the other's geometric mean is that of its two cells' ratios.
    expect(second.geomean).toBeCloseTo(1, 9);
    const ratios = ["1", "2"].map((t) => cellOf(t).two.ratio!);
    expect(first.geomean!).toBeCloseTo(Math.sqrt(ratios[0] * ratios[1]), 9);
    expect(first.geomean!).toBeGreaterThan(1);
    expect(first.geomean_ci_low!).toBeLessThanOrEqual(first.geomean!);
    expect(first.geomean_ci_high!).toBeGreaterThanOrEqual(first.geomean!);
  });
});
