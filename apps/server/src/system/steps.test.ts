import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { engineStore } from "@benchwright/engine/test-access";

// What a step does at its edges, on the local provider: time limits, silent tools,
// clients that leave, and the work dir left behind.
describe("steps at their edges", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    // An operator may allow time limits past what a timer holds (24.8 days): one test below needs it.
    fx = await openFixture({ engine: { maxStepTimeoutS: 3_000_000 } });
    // Exits 0 and prints no metric.
    dropDefinition(fx.configDir, { id: "silent", workload: "quiet", run: "echo 'all done, nothing measured'" });
    api = request(fx.app);
  });
  afterAll(() => fx.close());

  async function session(service: Record<string, unknown> = {}): Promise<string> {
    return (
      await api
        .post("/api/v1/sessions/")
        .send({ config: { provider: { class: "local", name: "edge" }, edge: service } })
        .expect(200)
    ).body.id;
  }
  async function prepared(sessionId: string, tool: string, workload: string): Promise<string> {
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload }).expect(200)).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    return id;
  }

  it("kills a step past the service type's time limit and says so", async () => {
    const id = await prepared(await session({ step_timeout: 2 }), "idle", "idle30");
    const started = Date.now();
    const res = await api.post(`/api/v1/executions/${id}/run`).expect(502);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.body).toMatchObject({ code: "step_timeout", state: "run_failed", exit_code: null });
    expect(res.body.detail).toMatch(/time limit of 2 s/);
    // The step's process group is gone: nothing of it sleeps on.
    expect(alive(runPgid(fx.dataDir, id))).toBe(false);
  });

  it("lets a step run under a time limit longer than a timer holds (24.8 days)", async () => {
    const id = await prepared(await session({ step_timeout: 3_000_000 }), "idle", "idle0");
    const res = await api.post(`/api/v1/executions/${id}/run`);
    expect(res.status, res.text).toBe(200);
    expect(Number(res.body.duration)).toBeGreaterThanOrEqual(0);
  });

  it("fails a run that exits 0 without metrics, and stores none", async () => {
    const id = await prepared(await session(), "silent", "quiet");
    const res = await api.post(`/api/v1/executions/${id}/run`).expect(502);
    expect(res.body).toMatchObject({ code: "step_failed", exit_code: 0 });
    expect(res.body.detail).toMatch(/no metrics/);
    expect((await api.get(`/api/v1/executions/${id}`)).body).toMatchObject({ state: "run_failed", metrics: [] });
  });

  it("has a step begun here followed by this server's worker on the lease it was begun with: no claim after", async () => {
    const id = await prepared(await session(), "idle", "idle5");
    const store = engineStore(fx.engine);
    const claim = store.leases.claim;
    let claims = 0;
    store.leases.claim = (...args) => (claims++, claim.apply(store.leases, args));
    try {
      const answer = api.post(`/api/v1/executions/${id}/run`).then((res) => res);
      // While it runs, it is held: by this server's worker, on a lease.
      let running: Awaited<ReturnType<typeof store.steps.running>>[number] | undefined;
      for (let i = 0; i < 100 && !running; i++) {
        running = (await store.steps.running([id]))[0];
        if (!running) await new Promise((r) => setTimeout(r, 50));
      }
      expect(running?.owner?.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
      expect(new Date(running!.lease_until!).getTime()).toBeGreaterThan(Date.now());
      const res = await answer;
      expect(res.status, res.text).toBe(200);
      expect(claims).toBe(0);
    } finally {
      store.leases.claim = claim;
    }
  });

  it("refuses a second prepare while one is running, with 409", async () => {
    const sessionId = await session();
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
    const [a, b] = await Promise.all([api.post(`/api/v1/executions/${id}/prepare`), api.post(`/api/v1/executions/${id}/prepare`)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it("goes on with a step when its client disconnects", async () => {
    const id = await prepared(await session(), "idle", "idle5");
    const server = fx.app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: `/api/v1/executions/${id}/run` });
    req.on("error", () => {});
    req.end();
    await new Promise((r) => setTimeout(r, 1000));
    req.destroy();
    expect((await api.get(`/api/v1/executions/${id}`)).body.state).toBe("running");
    let state = "running";
    for (let i = 0; i < 40 && state === "running"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      state = (await api.get(`/api/v1/executions/${id}`)).body.state;
    }
    server.close();
    expect(state).toBe("completed");
  });

  it("follows a run again after a server restart, and records its metrics", async () => {
    let persistent = await openFixture({ persistent: true });
    try {
      const papi = request(persistent.app);
      const sid = (await papi.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
      const id = (await papi.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "idle", workload: "idle5" }).expect(200)).body.id;
      await papi.post(`/api/v1/executions/${id}/prepare`).expect(200);
      const interrupted = persistent.engine.run(id).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 1500));
      persistent = await persistent.reopen();
      expect(await interrupted).toMatchObject({ code: "unavailable" });
      const rapi = request(persistent.app);
      let exec = (await rapi.get(`/api/v1/executions/${id}`).expect(200)).body;
      for (let i = 0; i < 60 && exec.state === "running"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        exec = (await rapi.get(`/api/v1/executions/${id}`).expect(200)).body;
      }
      expect(exec.state).toBe("completed");
      expect(exec.metrics[0]).toMatchObject({ name: "idle_seconds" });
      expect(exec.metrics[0].value).toBeGreaterThanOrEqual(5);
      expect(exec.steps.filter((s: { step: string }) => s.step === "run")).toHaveLength(1);
    } finally {
      await persistent.close();
    }
  });

  it("fails a step whose log cannot be written, says so, and a retry works once it can", async () => {
    const id = (
      await api
        .post(`/api/v1/sessions/${await session()}/executions/`)
        .send({ tool: "idle", workload: "idle0" })
        .expect(200)
    ).body.id;
    // A file where the execution's log folder goes: no log can be opened for it.
    mkdirSync(join(fx.dataDir, "logs"), { recursive: true });
    writeFileSync(join(fx.dataDir, "logs", id), "in the way");
    const res = await api.post(`/api/v1/executions/${id}/prepare`).expect(502);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "step_failed", state: "prepare_failed" });
    expect((await api.get(`/api/v1/executions/${id}`)).body.state).toBe("prepare_failed");
    rmSync(join(fx.dataDir, "logs", id));
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
  });

  it("finishes a DELETE cut short by a stop when the server starts again, stopping the session's step", async () => {
    let persistent = await openFixture({ persistent: true });
    try {
      const papi = request(persistent.app);
      const sid = (await papi.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
      const id = (await papi.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "idle", workload: "idle30" }).expect(200)).body.id;
      await papi.post(`/api/v1/executions/${id}/prepare`).expect(200);
      const interrupted = persistent.engine.run(id).catch((e: Error) => e);
      let pgid = 0;
      for (let i = 0; i < 40 && !pgid; i++) {
        await new Promise((r) => setTimeout(r, 100));
        pgid = (() => {
          try {
            return runPgid(persistent.dataDir, id);
          } catch {
            return 0;
          }
        })();
      }
      expect(alive(pgid)).toBe(true);
      // The DELETE's first write landed, then the server stopped before it stopped anything.
      await engineStore(persistent.engine).sessions.setState(sid, ["active"], "deleting");
      persistent = await persistent.reopen();
      await interrupted;
      const rapi = request(persistent.app);
      // A deleted session's record stays: its state says the DELETE finished.
      let state = "deleting";
      for (let i = 0; i < 60 && state !== "deleted"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        // Gone once deleted (410 session_gone); until then its record tells its state.
        const answer = await rapi.get(`/api/v1/sessions/${sid}`);
        state = answer.status === 410 ? "deleted" : (answer.body.state ?? `HTTP ${answer.status}`);
      }
      expect(state).toBe("deleted");
      expect(alive(pgid)).toBe(false);
      const exec = (await rapi.get(`/api/v1/executions/${id}`).expect(200)).body;
      expect(exec.state).toBe("run_failed");
      expect(existsSync(join(persistent.dataDir, "work", sid))).toBe(false);
    } finally {
      await persistent.close();
    }
  });

  it("removes the session's private work dir on this host when the session is deleted", async () => {
    const sessionId = await session();
    await prepared(sessionId, "idle", "idle0");
    const dir = join(fx.dataDir, "work", sessionId);
    expect(existsSync(dir)).toBe(true);
    await api.delete(`/api/v1/sessions/${sessionId}/`).expect(204);
    expect(existsSync(dir)).toBe(false);
  });
});

/** The process group id the runner recorded for the execution's first run on this host. */
function runPgid(dataDir: string, execId: string): number {
  const root = join(dataDir, "work");
  for (const session of readdirSync(root)) {
    const file = join(root, session, execId, "run-1", "step.pid");
    if (existsSync(file)) return Number(readFileSync(file, "utf8").trim());
  }
  throw new Error("no step.pid");
}

/** Whether any process of the group still runs; zombies (which this container's init reaps late) do not count. */
function alive(pgid: number): boolean {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command's closing parenthesis: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}
