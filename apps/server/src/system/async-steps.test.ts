import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient, waitForStep } from "@benchwright/sdk";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess } from "../test-support/processes.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";

describe("asynchronous steps (Prefer: respond-async)", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    fx = await openFixture();
    api = request(fx.app);
    server = fx.app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await fx.close();
  });

  async function execution(workload = "idle0"): Promise<string> {
    const sid = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
    return (await api.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "idle", workload }).expect(200)).body.id;
  }

  it("answers 202 with the attempt and its Location, which gives the state, duration and metrics", async () => {
    const id = await execution("idle5");
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    // At once, not after the 5 s the workload sleeps: the answer says the step is still running
    // (a clock bound of 4 s failed in CI under load, where the answer took 4.4 s).
    const res = await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "wait=100, respond-async").expect(202);
    expect(res.headers.location).toBe(`/api/v1/executions/${id}/steps/run/1`);
    expect(res.headers["preference-applied"]).toBe("respond-async");
    expect(res.body).toMatchObject({
      execution_id: id,
      step: "run",
      attempt: 1,
      state: "running",
      duration: null,
      exit_code: null,
      metrics: [],
    });
    expect((await api.get(`/api/v1/executions/${id}`)).body.state).toBe("running");

    let attempt = res.body;
    while (attempt.state === "running") {
      await new Promise((r) => setTimeout(r, 200));
      attempt = (await api.get(res.headers.location).expect(200)).body;
    }
    expect(attempt).toMatchObject({ state: "succeeded", exit_code: 0 });
    expect(Number(attempt.duration)).toBeGreaterThanOrEqual(5);
    expect(attempt.metrics).toEqual([expect.objectContaining({ name: "idle_seconds", unit: "s" })]);
  });

  it("says why a failed attempt failed", async () => {
    const id = await execution("failing");
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    const res = await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
    let attempt = res.body;
    while (attempt.state === "running") {
      await new Promise((r) => setTimeout(r, 100));
      attempt = (await api.get(res.headers.location).expect(200)).body;
    }
    expect(attempt).toMatchObject({ state: "failed", exit_code: 3, error: { code: "step_failed" } });
    // A second run while none runs is attempt 2, and a second asynchronous run at once is a 409.
    const again = await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
    expect(again.body.attempt).toBe(2);
    await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(409);
  });

  it("keeps the synchronous answer without the preference", async () => {
    const id = await execution();
    const res = await api.post(`/api/v1/executions/${id}/prepare`).set("Prefer", "return=minimal").expect(200);
    expect(Object.keys(res.body).sort()).toEqual(["duration", "started"]);
  });

  it("answers 404 for an attempt that does not exist, 400 for a step that is not one", async () => {
    const id = await execution();
    await api.get(`/api/v1/executions/${id}/steps/run/1`).expect(404);
    await api.get(`/api/v1/executions/${id}/steps/install/1`).expect(400);
    await api.get(`/api/v1/executions/${id}/steps/run/0`).expect(400);
  });

  it("gives the SDK prepare(id, { async: true }) and waitForStep", async () => {
    const bw = createClient({ baseUrl });
    const id = await execution();
    const prepare = await bw.prepare(id, { async: true });
    expect(prepare).toMatchObject({ step: "prepare", attempt: 1 });
    expect((await waitForStep(bw, prepare, { intervalMs: 50 })).state).toBe("succeeded");
    const run = await waitForStep(bw, await bw.run(id, { async: true }), { intervalMs: 50 });
    expect(run.metrics[0]).toMatchObject({ name: "idle_seconds" });
    expect(await bw.getStep(id, "run", 1)).toEqual(run);
  });

  it("answers /healthz and /readyz without a token or the API prefix", async () => {
    const guarded = await openFixture({ token: "s3cret-token-value" });
    try {
      await request(guarded.app).get("/healthz").expect(200, { status: "ok" });
      expect((await request(guarded.app).get("/readyz").expect(200)).body).toMatchObject({ ready: true, database: true, queue: true });
      await request(guarded.app).get("/api/v1/sessions/").expect(401);
    } finally {
      await guarded.close();
    }
  });
});

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

describe("stopping well", () => {
  it("exits within its deadline on SIGTERM while a step runs, and the next start follows the step to its end", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-stop-"));
    try {
      const env = { BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: REPO_CONFIG, BENCHWRIGHT_STOP_TIMEOUT: "3" };
      let server = await startProcess("serve", env);
      const call = (path: string, init: RequestInit = {}) => fetch(server.api + path, init).then(async (r) => ({ status: r.status, body: await r.json() }));
      const json = { "Content-Type": "application/json" };
      const sid = (await call("/sessions/", { method: "POST", headers: json, body: JSON.stringify({ provider: "local", service: "default" }) })).body.id;
      const id = (
        await call(`/sessions/${sid}/executions/`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ tool: "idle", workload: "idle5" }),
        })
      ).body.id;
      expect((await call(`/executions/${id}/prepare`, { method: "POST" })).status).toBe(200);
      // A client waits for the run synchronously while the server is told to stop.
      const waiting = call(`/executions/${id}/run`, { method: "POST" }).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 1_000));
      const stopping = Date.now();
      expect(await server.stop(20_000)).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(3_500);
      // The waiting client heard that the server stopped, not a hang.
      const answer = await waiting;
      expect(answer instanceof Error || (answer as { status: number }).status === 503).toBe(true);

      server = await startProcess("serve", env);
      try {
        let step = (await call(`/executions/${id}/steps/run/1`)).body;
        for (let i = 0; i < 60 && step.state === "running"; i++) {
          await new Promise((r) => setTimeout(r, 250));
          step = (await call(`/executions/${id}/steps/run/1`)).body;
        }
        expect(step.state).toBe("succeeded");
        expect(step.metrics[0].value).toBeGreaterThanOrEqual(5);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
