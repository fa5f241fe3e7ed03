import { loadCatalog } from "@benchwright/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLoopbackSession, type LoopbackSession } from "../test-support/loopback.js";

// Every workload of every built-in tool, prepared (the tool installed through apt over SSH when
// the host lacks it) and run on an existing-vm session whose host is the harness's sshd. The list
// comes from the catalog, so a new workload is covered without a change here. Workloads with
// machine roles (iperf, iperf3, wrk, sysbench's oltp) are left out: roles.test.ts runs each of
// them between two hosts.

// Smaller than the catalog's defaults where those take more than a few seconds or a lot of
// memory or disk on a 2-core CI machine: by tool, or by tool/workload (which wins). A parameter
// a workload does not declare is left out. Everything else runs with the catalog's defaults.
const SMALL: Record<string, Record<string, string | number | boolean>> = {
  idle: { seconds: 0.2 },
  "7zip": { seconds: 1 },
  "stress-ng": { duration: 1 },
  sysbench: { duration: 1 },
  "sysbench/cpu_10000": { threads: "1,2", events: 500 },
  "sysbench/mutex": { locks: 20000 },
  fio: { runtime: 1, size: 16 },
  compression: { size: 2 },
  mbw: { size: 64, runs: 2 },
  "redis-benchmark": { requests: 5000 },
  ffmpeg: { frames: 10 },
  ioping: { count: 200 },
  cryptsetup: { iter_time: 200 },
  qperf: { duration: 1 },
  sockperf: { duration: 1 },
  pgbench: { duration: 1 },
  stockfish: { depth: 8 },
  primesieve: { exponent: 9 },
  bonnie: { size: 32, files: 2 },
  hpcc: { n: 300 },
  openfoam: { cells: 30, end_time: 0.05, iterations: 20 },
};

// Workloads that fail on purpose: the run answers 502 and the execution is run_failed.
const FAILS = new Set(["idle/failing"]);

interface Metric {
  name: string;
  value: number;
  unit: string;
  better?: string;
}

describe("every built-in workload, end to end over SSH", () => {
  const catalog = loadCatalog();
  let loop: LoopbackSession;

  beforeAll(async () => {
    loop = await openLoopbackSession();
  }, 60_000);

  afterAll(async () => {
    await loop?.close();
  });

  const cases = catalog.tools().flatMap((t) => t.workloads.filter((w) => !w.roles).map((w) => [t.id, w.id] as const));

  /** The small parameters this workload declares. */
  function paramsOf(tool: string, workload: string): Record<string, string | number | boolean> {
    const declared = catalog.workload(tool, workload)!.params;
    const wanted = { ...SMALL[tool], ...SMALL[`${tool}/${workload}`] };
    return Object.fromEntries(Object.entries(wanted).filter(([name]) => Object.hasOwn(declared, name)));
  }

  it("covers every workload without roles, with parameters they accept", () => {
    const all = catalog.tools().reduce((n, t) => n + t.workloads.length, 0);
    const withRoles = catalog.tools().reduce((n, t) => n + t.workloads.filter((w) => w.roles).length, 0);
    expect(cases).toHaveLength(all - withRoles);
    expect(all).toBeGreaterThanOrEqual(80);
    for (const [tool, workload] of cases) expect(catalog.params(tool, workload, paramsOf(tool, workload)).problems, `${tool}/${workload}`).toEqual([]);
    // Every entry of SMALL names a tool or workload that is still there.
    for (const key of Object.keys(SMALL)) {
      const [tool, workload] = key.split("/") as [string, string | undefined];
      expect(workload ? catalog.workload(tool, workload) : catalog.tool(tool), key).toBeDefined();
    }
  });

  // A first prepare may install a package (ffmpeg's dependencies are large): the prepare timeout.
  it.each(cases)(
    "prepares and runs %s %s: completed, with declared, finite metrics",
    async (tool, workload) => {
      const { api, sessionId } = loop;
      const params = paramsOf(tool, workload);
      const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload, params }).expect(200)).body.id;
      const prepared = await api.post(`/api/v1/executions/${id}/prepare`);
      expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
      const ran = await api.post(`/api/v1/executions/${id}/run`);
      const exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
      if (FAILS.has(`${tool}/${workload}`)) {
        expect(ran.status, JSON.stringify(ran.body)).toBe(502);
        expect(exec.state).toBe("run_failed");
        expect(exec.metrics).toEqual([]);
        return;
      }
      expect(ran.status, JSON.stringify(ran.body)).toBe(200);
      expect(exec.state).toBe("completed");
      const metrics = exec.metrics as Metric[];
      expect(metrics.length, `${tool}/${workload} gave no metric`).toBeGreaterThan(0);
      const declared = catalog.tool(tool)!.metrics ?? {};
      for (const m of metrics) {
        const meaning = declared[m.name];
        expect(meaning, `${tool}/${workload}: ${m.name} is declared`).toBeDefined();
        expect(m.unit, `${tool}/${workload}: ${m.name}`).toBe(meaning!.unit);
        expect(m.better, `${tool}/${workload}: ${m.name}`).toBe(meaning!.better);
        expect(Number.isFinite(m.value), `${tool}/${workload}: ${m.name} = ${m.value}`).toBe(true);
        // A rate, a rating or a size measured is more than nothing; a latency, a time or a count of failures may be 0.
        if (meaning!.better === "higher") expect(m.value, `${tool}/${workload}: ${m.name}`).toBeGreaterThan(0);
        else expect(m.value, `${tool}/${workload}: ${m.name}`).toBeGreaterThanOrEqual(0);
      }
    },
    900_000,
  );
});
