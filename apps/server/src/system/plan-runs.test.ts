import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PlanRun } from "@benchwright/contract";
import { createTestSchema, startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { runPlan } from "../test-support/plan-run.js";
import { startProcess, type BenchwrightProcess } from "../test-support/processes.js";
import { engineStore, queryDatabase, storeSnapshot } from "@benchwright/engine/test-access";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

// Issue 24, point 2: a plan's runs, driven by the engine from the database.
describe("plan runs", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sshd: SshdHarness;
  let marks: string;
  const here = { label: "here", provider: "local", service: "default" };

  beforeAll(async () => {
    [fx, sshd] = await Promise.all([openFixture(), startSshd()]);
    api = request(fx.app);
    marks = mkdtempSync(join(tmpdir(), "bw-flaky-"));
    // Fails its first run, then succeeds: a retry that works.
    dropDefinition(fx.configDir, {
      id: "flaky",
      workload: "once",
      run: `if [ ! -e "${marks}/ran" ]; then touch "${marks}/ran"; echo "first time: no"; exit 3; fi\necho 'BW_METRIC ok 1 count'`,
    });
    dropDefinition(fx.configDir, { id: "failing", workload: "always", run: 'echo "never"; exit 4' });
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await sshd?.stop();
    rmSync(marks, { recursive: true, force: true });
  });

  const plan = async (body: object) => (await api.post("/api/v1/plans/").send(body).expect(201)).body.id as string;
  const until = async (planId: string, runId: string, done: (run: PlanRun) => boolean, ms = 60_000): Promise<PlanRun> => {
    const end = Date.now() + ms;
    for (;;) {
      const run = (await api.get(`/api/v1/plans/${planId}/runs/${runId}`).expect(200)).body as PlanRun;
      if (done(run)) return run;
      if (Date.now() > end) throw new Error(`run ${runId} is still ${run.state}: ${JSON.stringify(run.progress)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const ended = (run: PlanRun) => ["completed", "failed", "cancelled"].includes(run.state);
  const stepsOf = async (execId: string) =>
    ((await api.get(`/api/v1/executions/${execId}`).expect(200)).body.steps as Array<{ step: string; state: string }>).map((s) => `${s.step}:${s.state}`);

  it("runs two targets' cells once each, deletes the sessions and tells each change on /events", async () => {
    const lab = {
      label: "lab",
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    };
    const planId = await plan({
      targets: [here, lab],
      benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [0, 1] } }],
      concurrency: { per_target: 1, overall: 2 },
    });
    const firstEvent = await fx.engine.lastEventId();
    const started = await api.post(`/api/v1/plans/${planId}/runs/`).expect(202);
    const run = started.body as PlanRun;
    expect(started.headers.location).toBe(`/api/v1/plans/${planId}/runs/${run.id}`);
    expect(run).toMatchObject({ state: "pending", started: null, sessions: {}, progress: { total: 4, pending: 4, eta_seconds: null } });
    expect(run.cells.map((c) => [c.target, c.cell, c.params, c.execution_id])).toEqual([
      ["here", 0, { seconds: 0 }, null],
      ["here", 1, { seconds: 1 }, null],
      ["lab", 0, { seconds: 0 }, null],
      ["lab", 1, { seconds: 1 }, null],
    ]);

    const done = await until(planId, run.id, ended);
    expect(done.state).toBe("completed");
    expect(done.progress).toEqual({ total: 4, pending: 0, running: 0, completed: 4, failed: 0, cancelled: 0, eta_seconds: 0 });
    expect(done.started).not.toBeNull();
    expect(done.ended).not.toBeNull();
    for (const cell of done.cells) {
      expect(cell).toMatchObject({ state: "completed", attempts: 2, error: null });
      expect(await stepsOf(cell.execution_id!)).toEqual(["prepare:succeeded", "run:succeeded"]);
    }
    expect(Object.keys(done.sessions).sort()).toEqual(["here", "lab"]);
    for (const id of Object.values(done.sessions)) expect((await api.get(`/api/v1/sessions/${id}`).expect(410)).body.code).toBe("session_gone");
    // Each target's executions are in its own session, with the cell's params.
    const exec = (await api.get(`/api/v1/executions/${done.cells[3].execution_id}`).expect(200)).body;
    expect(exec).toMatchObject({ session_id: done.sessions.lab, params: { seconds: 1 } });

    const events = await fx.engine.readEvents({ types: ["plan_run.started", "plan_run.progress", "plan_run.ended"] }, firstEvent, 100);
    expect(events.map((e) => e.type)).toEqual(["plan_run.started", ...Array(4).fill("plan_run.progress"), "plan_run.ended"]);
    expect(events[0].data).toMatchObject({ plan_id: planId, run_id: run.id, total: 4, sessions: done.sessions });
    expect(events[4].data).toMatchObject({ state: "completed", attempts: 2, progress: { completed: 4 } });
    expect(events[5].data).toMatchObject({ state: "completed", progress: { completed: 4, eta_seconds: 0 } });
    // Listed, and paged.
    const second = (await api.post(`/api/v1/plans/${planId}/runs/`).expect(202)).body as PlanRun;
    await until(planId, second.id, ended);
    const all = await api.get(`/api/v1/plans/${planId}/runs/`).expect(200);
    expect(all.body.map((r: PlanRun) => r.id)).toEqual([run.id, second.id]);
    const page1 = await api.get(`/api/v1/plans/${planId}/runs/?limit=1`).expect(200);
    expect(page1.body.map((r: PlanRun) => r.id)).toEqual([run.id]);
    const page2 = await api.get(`/api/v1/plans/${planId}/runs/?limit=1&cursor=${page1.headers["x-next-cursor"]}`).expect(200);
    expect(page2.body.map((r: PlanRun) => r.id)).toEqual([second.id]);
    expect(page2.headers["x-next-cursor"]).toBeUndefined();
  }, 120_000);

  it("retries a failed step up to `retries` times, records the attempts, and keeps the sessions when asked", async () => {
    const planId = await plan({
      targets: [here],
      benchmarks: [
        { tool: "flaky", workload: "once" },
        { tool: "failing", workload: "always" },
      ],
      retries: 1,
      keep_sessions: true,
    });
    const run = (await api.post(`/api/v1/plans/${planId}/runs/`).expect(202)).body as PlanRun;
    const done = await until(planId, run.id, ended);
    expect(done.state).toBe("failed");
    const [flaky, failing] = done.cells;
    expect(flaky).toMatchObject({ state: "completed", attempts: 3, error: null });
    expect(await stepsOf(flaky.execution_id!)).toEqual(["prepare:succeeded", "run:failed", "run:succeeded"]);
    expect(failing).toMatchObject({ state: "failed", attempts: 3 });
    expect(failing.error).toMatch(/^run failed 2 times: /);
    expect(await stepsOf(failing.execution_id!)).toEqual(["prepare:succeeded", "run:failed", "run:failed"]);
    const session = (await api.get(`/api/v1/sessions/${done.sessions.here}`).expect(200)).body;
    expect(session.state).toBe("active");
    await api.delete(`/api/v1/sessions/${done.sessions.here}`).expect(204);

    // `on_failure: stop`: the cells not begun when one fails for good are cancelled.
    const stopping = await plan({
      targets: [here],
      benchmarks: [
        { tool: "failing", workload: "always" },
        { tool: "idle", workload: "idle0" },
      ],
      on_failure: "stop",
    });
    const stopped = await until(stopping, (await api.post(`/api/v1/plans/${stopping}/runs/`).expect(202)).body.id, ended);
    expect(stopped.state).toBe("failed");
    expect(stopped.cells.map((c) => [c.state, c.attempts, c.error])).toEqual([
      ["failed", 2, expect.stringMatching(/^run failed: /)],
      ["cancelled", 0, "a cell failed and the plan stops on failure"],
    ]);
    expect(stopped.progress).toMatchObject({ failed: 1, cancelled: 1, eta_seconds: 0 });
  }, 120_000);

  it("cancels a run: its step stopped, the rest cancelled, its sessions deleted, its results kept", async () => {
    const planId = await plan({ targets: [here], benchmarks: [{ tool: "idle", workload: "idle30", params: { seconds: [30, 30] } }] });
    const run = (await api.post(`/api/v1/plans/${planId}/runs/`).expect(202)).body as PlanRun;
    const running = await until(planId, run.id, (r) => r.cells[0].state === "running");
    // A plan whose run goes on stays.
    expect((await api.delete(`/api/v1/plans/${planId}`).expect(409)).body.code).toBe("wrong_state");
    const cancelling = await api.delete(`/api/v1/plans/${planId}/runs/${run.id}`).expect(202);
    expect(cancelling.body.state).toBe("cancelling");
    const cancelledAt = Date.now();
    const done = await until(planId, run.id, ended);
    expect(done.state).toBe("cancelled");
    // Not waited for: the step was stopped.
    expect(Date.now() - cancelledAt).toBeLessThan(25_000);
    expect(done.cells.map((c) => [c.state, c.execution_id === null])).toEqual([
      ["cancelled", false],
      ["cancelled", true],
    ]);
    expect(done.cells[1].attempts).toBe(0);
    expect((await api.get(`/api/v1/sessions/${running.sessions.here}`).expect(410)).body.code).toBe("session_gone");
    // The execution and its record are kept.
    expect(await stepsOf(done.cells[0].execution_id!)).toEqual(["prepare:succeeded", "run:failed"]);
    expect((await api.delete(`/api/v1/plans/${planId}/runs/${run.id}`).expect(409)).body.code).toBe("wrong_state");
    await api.delete(`/api/v1/plans/${planId}`).expect(204);
    await api.get(`/api/v1/plans/${planId}/runs/${run.id}`).expect(404);
    const told = await fx.engine.readEvents({ types: ["plan.created", "plan.deleted"] }, 0, 100);
    expect(told.filter((e) => e.data.plan_id === planId).map((e) => [e.type, e.session_id])).toEqual([
      ["plan.created", null],
      ["plan.deleted", null],
    ]);
  }, 120_000);

  it("answers a bad run request with a 4xx and changes nothing", async () => {
    const planId = await plan({ targets: [here], benchmarks: [{ tool: "idle", workload: "idle0" }] });
    const before = await storeSnapshot(fx.engine);
    const missing = "7c1e9a3b-5d2f-4b8e-9c6a-1f0e2d3c4b5a";
    expect((await api.post(`/api/v1/plans/${missing}/runs/`).expect(404)).body.code).toBe("not_found");
    const body = await api.post(`/api/v1/plans/${planId}/runs/`).send({ repetitions: 3 }).expect(400);
    expect(body.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await api.post("/api/v1/plans/not-a-plan/runs/").expect(400)).body.errors[0].path).toBe("/params/plan_id");
    await api.get(`/api/v1/plans/${planId}/runs/5e8d2c1a`).expect(400);
    await api.get(`/api/v1/plans/${planId}/runs/?limit=0`).expect(400);
    await api.get(`/api/v1/plans/${planId}/runs/?cursor=nope`).expect(400);
    await api.get(`/api/v1/plans/${planId}/runs/${missing}`).expect(404);
    await api.delete(`/api/v1/plans/${planId}/runs/${missing}`).expect(404);
    await api.get(`/api/v1/plans/${missing}/runs/`).expect(404);
    expect(await storeSnapshot(fx.engine)).toEqual(before);
  });
});

// Issue 34, point 7: with BENCHWRIGHT_QUOTA_SESSIONS=3 and _STEPS=2, a 5-target plan ran 5
// sessions and 5 steps at once (the quotas were the HTTP layer's alone). A run's driver now asks
// within its starter's quotas, and waits for room rather than failing cells.
describe("a plan run under its starter's quotas", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await openFixture({ engine: { quotas: { sessions: 3, steps: 2 } } });
  }, 60_000);
  afterAll(() => fx?.close());

  it("has at most as many sessions and steps at once as the quotas allow, and completes every cell", async () => {
    const api = request(fx.app);
    const targets = Array.from({ length: 5 }, (_, i) => ({ label: `t${i}`, provider: "local", service: "default" }));
    const planId = (
      await api
        .post("/api/v1/plans/")
        .send({ targets, benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [0.5, 0.6] } }], concurrency: { per_target: 2, overall: 10 } })
        .expect(201)
    ).body.id as string;
    const most = { sessions: 0, steps: 0 };
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const [{ sessions }] = await queryDatabase<{ sessions: number }>(
          fx.engine,
          "SELECT count(*)::int AS sessions FROM sessions WHERE state IN ('active', 'deleting')",
        );
        const [{ steps }] = await queryDatabase<{ steps: number }>(
          fx.engine,
          "SELECT count(*)::int AS steps FROM executions WHERE state IN ('preparing', 'running')",
        );
        most.sessions = Math.max(most.sessions, sessions);
        most.steps = Math.max(most.steps, steps);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const run = await runPlan(api, planId).finally(() => (watching = false));
    await watch;
    expect(run.cells.map((c) => c.state)).toEqual(Array(10).fill("completed"));
    expect(most.sessions).toBeLessThanOrEqual(3);
    expect(most.steps).toBeLessThanOrEqual(2);
    // Bounded, not serialized: the room was used.
    expect(most.steps).toBe(2);
  }, 180_000);
});

// Issue 34, point 8: on PostgreSQL, steps began up to half a second after a cancel's 202 (the
// driver saw the cancel only at its next lease renewal). A step's begin now reads the run's
// state with the run's row held, in its own transaction.
describe("a plan run cancelled on PostgreSQL", () => {
  let fx: Fixture;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  beforeAll(async () => {
    schema = await createTestSchema();
    fx = await openFixture({ engine: { databaseUrl: schema.url } });
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await schema?.drop();
  });

  it("begins no step after the cancel's answer", async () => {
    const api = request(fx.app);
    const planId = (
      await api
        .post("/api/v1/plans/")
        .send({
          targets: [{ label: "here", provider: "local", service: "default" }],
          benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: Array.from({ length: 40 }, () => 0) } }],
          concurrency: { per_target: 8, overall: 8 },
        })
        .expect(201)
    ).body.id as string;
    const runId = (await api.post(`/api/v1/plans/${planId}/runs/`).expect(202)).body.id as string;
    const runOf = async () => (await api.get(`/api/v1/plans/${planId}/runs/${runId}`).expect(200)).body as PlanRun;
    // Cells are beginning steps one after the other: some have ended, more are going.
    for (let run = await runOf(); run.progress.completed < 4; run = await runOf()) {
      if (["completed", "failed", "cancelled"].includes(run.state)) throw new Error(`the run ended before it was cancelled: ${run.state}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await api.delete(`/api/v1/plans/${planId}/runs/${runId}`).expect(202);
    const answered = Date.now();
    let run = await runOf();
    for (let i = 0; !["completed", "failed", "cancelled"].includes(run.state); i++) {
      if (i > 240) throw new Error(`the run is still ${run.state}`);
      await new Promise((r) => setTimeout(r, 250));
      run = await runOf();
    }
    expect(run.state).toBe("cancelled");
    const steps = await engineStore(fx.engine).steps.list(run.cells.map((c) => c.execution_id).filter((id): id is string => id !== null));
    expect(steps.length).toBeGreaterThan(0);
    const late = steps.filter((s) => new Date(s.started).getTime() > answered);
    expect(late.map((s) => `${s.step} of ${s.execution_id} began ${new Date(s.started).getTime() - answered} ms after the 202`)).toEqual([]);
    // No cell failed for it: the ones refused a step ended as cancelled.
    expect(run.cells.filter((c) => c.state === "failed")).toEqual([]);
  }, 120_000);
});

// A run's state is in the database: a server killed mid-run, started again on its data dir, goes on where it was.
describe("a plan run on the embedded database, its server killed", () => {
  it("is taken up by the next start and completes, each cell's steps begun once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-run-kill-"));
    const env = { BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: REPO_CONFIG };
    let server: BenchwrightProcess = await startProcess("serve", env);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server.api + path, {
        method,
        headers: body ? { "Content-Type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await res.json()) as Record<string, unknown> & PlanRun;
    };
    const runOf = (planId: string, runId: string) => call("GET", `/plans/${planId}/runs/${runId}`);
    try {
      const planId = (
        await call("POST", "/plans/", {
          targets: [{ label: "here", provider: "local", service: "default" }],
          benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [3, 1, 1] } }],
        })
      ).id;
      const runId = (await call("POST", `/plans/${planId}/runs/`)).id;
      for (let i = 0; (await runOf(planId, runId)).cells[0].state !== "running"; i++) {
        if (i > 120) throw new Error("the first cell never ran");
        await new Promise((r) => setTimeout(r, 100));
      }
      await server.kill();
      server = await startProcess("serve", env);
      let run = await runOf(planId, runId);
      for (let i = 0; !["completed", "failed", "cancelled"].includes(run.state); i++) {
        if (i > 240) throw new Error(`the run is still ${run.state}`);
        await new Promise((r) => setTimeout(r, 250));
        run = await runOf(planId, runId);
      }
      expect(run.state).toBe("completed");
      expect(server.logs.join("\n")).toMatch(/driving plan run/);
      for (const cell of run.cells) {
        expect(cell).toMatchObject({ state: "completed", attempts: 2 });
        const exec = await call("GET", `/executions/${cell.execution_id}`);
        expect((exec.steps as Array<{ step: string; state: string }>).map((s) => `${s.step}:${s.state}`)).toEqual(["prepare:succeeded", "run:succeeded"]);
      }
      // One session, made once, deleted at the end.
      expect((await call("GET", `/sessions/${run.sessions.here}`)).code).toBe("session_gone");
      const sessions = (await (await fetch(`${server.api}/sessions/?state=active,deleting,deleted`)).json()) as unknown[];
      expect(sessions).toHaveLength(1);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
