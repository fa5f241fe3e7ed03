import type { RunningPrism } from "@benchwright/contract/prism";
import { BenchwrightProblemError, createClient } from "@benchwright/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxiedServer, type ProxiedServer } from "../test-support/proxied-server.js";

// The whole flow through the SDK, against the real server behind `prism proxy --errors`:
// any request or response that differs from the contract fails the call.
describe("the real server, checked by Prism against the contract", () => {
  let proxied: ProxiedServer;
  let prism: RunningPrism;

  beforeAll(async () => {
    proxied = await startProxiedServer();
    prism = proxied.prism;
  }, 60_000);

  afterAll(() => proxied?.close());

  it("runs create session → execution → prepare → run → list → get → delete without a violation", async () => {
    const client = createClient({ baseUrl: prism.url });
    const benchmarks = await client.listBenchmarks();
    expect(benchmarks.map((b) => b.id)).toContain("idle");
    expect((await client.getBenchmark("idle")).workloads.map((w) => w.id)).toContain("idle5");
    expect((await client.listProviders()).map((p) => p.name)).toContain("local");

    const session = await client.createSession({ provider: "local", service: "default" });
    const execution = await client.createExecution(session.id, { tool: "idle", workload: "idle0" });
    const prepared = await client.prepare(execution.id);
    const ran = await client.run(execution.id);
    for (const step of [prepared, ran]) {
      expect(step.started).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(Number(step.duration)).toBeGreaterThanOrEqual(0);
    }
    expect((await client.listSessions()).map((s) => s.id)).toContain(session.id);
    expect((await client.getSession(session.id)).executions[0].state).toBe("completed");
    expect((await client.listSessionExecutions(session.id)).map((e) => e.id)).toEqual([execution.id]);
    expect((await client.listExecutions()).map((e) => e.id)).toContain(execution.id);
    const done = await client.getExecution(execution.id);
    expect(done.metrics.map((m) => m.name)).toContain("idle_seconds");
    expect(await client.getLog(execution.id, { step: "run" })).toMatch(/BW_METRIC idle_seconds/);

    const failing = await client.createExecution(session.id, { tool: "idle", workload: "failing" });
    await client.prepare(failing.id);
    const error = await client.run(failing.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BenchwrightProblemError);
    expect((error as BenchwrightProblemError).problem).toMatchObject({ status: 502, code: "step_failed", exit_code: 3 });

    await client.deleteSession(session.id);
    expect((await client.listSessions()).map((s) => s.id)).not.toContain(session.id);
    expect(prism.output()).not.toMatch(/violation/i);
  }, 60_000);

  it("answers errors with problems the contract describes", async () => {
    const client = createClient({ baseUrl: prism.url });
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const call of [() => client.getSession(missing), () => client.getExecution(missing), () => client.prepare(missing)]) {
      const e = (await call().catch((x: unknown) => x)) as BenchwrightProblemError;
      expect(e).toBeInstanceOf(BenchwrightProblemError);
      expect(e.problem).toMatchObject({ status: 404, code: "not_found" });
    }
    const bad = (await client.createExecution(missing, { tool: "idle", workload: "idle0" }).catch((x: unknown) => x)) as BenchwrightProblemError;
    expect(bad.status).toBe(404);
  }, 30_000);
});
