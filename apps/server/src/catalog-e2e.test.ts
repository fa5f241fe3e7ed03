import { loadCatalog } from "@benchwright/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLoopbackSession, type LoopbackSession } from "./test-support/loopback.js";

// Every workload of the tools added for breadth (issue 10), prepared (the tool installed through
// apt over SSH when the host lacks it) and run on an existing-vm session whose host is the
// harness's sshd. The run parameters are the catalog's own small defaults.
const TOOLS = ["redis-benchmark", "pgbench", "7zip", "openssl", "compression", "mbw", "dbench", "sockperf", "ffmpeg"];

interface Metric {
  name: string;
  value: number;
  unit: string;
}

describe("the breadth tools, end to end over SSH", () => {
  const catalog = loadCatalog();
  let loop: LoopbackSession;

  beforeAll(async () => {
    loop = await openLoopbackSession();
  }, 60_000);

  afterAll(async () => {
    await loop?.close();
  });

  const cases = TOOLS.flatMap((tool) => catalog.tool(tool)!.workloads.map((w) => [tool, w.id] as const));

  it("covers every workload of the tools", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  // A first prepare may install a package (ffmpeg's dependencies are large): the prepare timeout.
  it.each(cases)("prepares and runs %s %s: completed, with declared, finite metrics", async (tool, workload) => {
    const { api, sessionId } = loop;
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload }).expect(200)).body.id;
    const prepared = await api.post(`/api/v1/executions/${id}/prepare`);
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const ran = await api.post(`/api/v1/executions/${id}/run`);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    const exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(exec.state).toBe("completed");
    const metrics = exec.metrics as Metric[];
    expect(metrics.length, `${tool}/${workload} gave no metric`).toBeGreaterThan(0);
    const declared = catalog.tool(tool)!.metrics!;
    for (const m of metrics) {
      const meaning = declared[m.name];
      expect(meaning, `${tool}/${workload}: ${m.name} is declared`).toBeDefined();
      expect(m.unit, `${tool}/${workload}: ${m.name}`).toBe(meaning!.unit);
      expect(Number.isFinite(m.value), `${tool}/${workload}: ${m.name} = ${m.value}`).toBe(true);
      // A rate, a rating or a size measured is more than nothing; a latency, a time or a count of failures may be 0.
      if (meaning!.better === "higher") expect(m.value, `${tool}/${workload}: ${m.name}`).toBeGreaterThan(0);
      else expect(m.value, `${tool}/${workload}: ${m.name}`).toBeGreaterThanOrEqual(0);
    }
  }, 900_000);
});
