import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema } from "@benchwright/testing";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { queryDatabase, storeSnapshot } from "@benchwright/engine/test-access";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const MISSING = "00000000-0000-4000-8000-000000000000";

// One engine for the file's HTTP behaviour (persistence, below, opens its own to restart it).
let fx: Fixture;
beforeAll(async () => {
  fx = await openFixture();
});
afterAll(() => fx?.close());

describe("the v1 REST interface on the local provider", () => {
  let api: ReturnType<typeof request>;
  let sessionId: string;
  let execId: string;

  beforeAll(() => {
    api = request(fx.app);
  });

  it("serves the interactive docs and the spec under both names", async () => {
    const page = await api.get("/api/v1/").expect(200);
    expect(page.text).toContain("swagger-ui-bundle.js");
    await api
      .get("/api/v1/docs/swagger-ui-bundle.js")
      .expect(200)
      .expect("content-type", /javascript/);
    expect((await api.get("/api/v1/openapi.json").expect(200)).body.openapi).toBe("3.1.0");
    // flask-restplus' name serves the Swagger 2.0 rendition (swagger-json.test.ts checks it whole).
    expect((await api.get("/api/v1/swagger.json").expect(200)).body.swagger).toBe("2.0");
  });

  it("lists benchmarks and one benchmark, on both spellings, masked", async () => {
    for (const path of ["/api/v1/benchmarks/", "/api/v1/benchmarks"]) {
      const res = await api.get(path).expect(200);
      expect(res.body.map((b: { id: string }) => b.id)).toEqual(expect.arrayContaining(["idle", "sysbench", "fio", "iperf3", "stress-ng"]));
    }
    const masked = await api.get("/api/v1/benchmarks/").set("X-Fields", "id").expect(200);
    expect(masked.body.every((b: object) => Object.keys(b).join() === "id")).toBe(true);
    for (const path of ["/api/v1/benchmarks/idle", "/api/v1/benchmarks/idle/"]) {
      const res = await api.get(path).set("X-Fields", "id,workloads{id}").expect(200);
      expect(res.body).toEqual({ id: "idle", workloads: expect.arrayContaining([{ id: "idle0" }, { id: "idle5" }, { id: "failing" }]) });
    }
    // What each figure means, for comparisons and charts: its unit and which direction is better.
    const sysbench = (await api.get("/api/v1/benchmarks/sysbench").expect(200)).body;
    expect(sysbench.metrics).toContainEqual(expect.objectContaining({ name: "events_per_second", unit: "events/s", better: "higher" }));
    expect(sysbench.metrics).toContainEqual(expect.objectContaining({ name: "latency_p95_ms", unit: "ms", better: "lower" }));
  });

  it("lists the stored providers", async () => {
    for (const path of ["/api/v1/providers/", "/api/v1/providers"]) {
      const res = await api.get(path).set("X-Fields", "name,service_types").expect(200);
      expect(res.body).toContainEqual({ name: "local", service_types: ["default"] });
    }
  });

  it("creates a session with Form A, on both spellings", async () => {
    for (const path of ["/api/v1/sessions/", "/api/v1/sessions"]) {
      const res = await api.post(path).send({ provider: "local", service: "default" }).expect(200);
      expect(res.body).toMatchObject({ provider: { id: "local", type: "default", class: "local" }, state: "active", executions: [] });
      expect(res.body.id).toMatch(UUID);
      expect(res.body.created).toMatch(TIMESTAMP);
      sessionId = res.body.id;
    }
    const masked = await api.post("/api/v1/sessions/").set("X-Fields", "id").send({ provider: "local", service: "default" }).expect(200);
    expect(Object.keys(masked.body)).toEqual(["id"]);
  });

  it("creates a session with Form B (inline local config)", async () => {
    const res = await api
      .post("/api/v1/sessions/")
      .send({ config: { provider: { class: "local", name: "mine" }, bench: { allow_install: false } } })
      .expect(200);
    expect(res.body.provider).toEqual({ id: "mine", type: "bench", class: "local" });
  });

  it("creates, lists and gets executions, on both spellings, masked", async () => {
    for (const path of [`/api/v1/sessions/${sessionId}/executions/`, `/api/v1/sessions/${sessionId}/executions`]) {
      const res = await api.post(path).send({ tool: "idle", workload: "idle0" }).expect(200);
      expect(res.body).toMatchObject({ session_id: sessionId, state: "created", test: { tool_id: "idle", workload_id: "idle0" } });
      execId = res.body.id;
    }
    for (const path of [`/api/v1/sessions/${sessionId}/executions/`, `/api/v1/sessions/${sessionId}/executions`]) {
      const res = await api.get(path).set("X-Fields", "id,state").expect(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[1]).toEqual({ id: execId, state: "created" });
    }
    for (const path of ["/api/v1/executions/", "/api/v1/executions"]) {
      const res = await api.get(path).set("X-Fields", "id").expect(200);
      expect(res.body).toContainEqual({ id: execId });
    }
    for (const path of [`/api/v1/executions/${execId}`, `/api/v1/executions/${execId}/`]) {
      await api
        .get(path)
        .set("X-Fields", "test{tool_id}")
        .expect(200, { test: { tool_id: "idle" } });
    }
  });

  it("prepares and runs on this host, with step results and metrics", async () => {
    const prepared = await api.post(`/api/v1/executions/${execId}/prepare`).expect(200);
    expect(prepared.body.started).toMatch(TIMESTAMP);
    expect(prepared.body.duration).toMatch(/^\d+(\.\d+)?$/);
    const ran = await api.post(`/api/v1/executions/${execId}/run/`).set("X-Fields", "duration").expect(200);
    expect(Object.keys(ran.body)).toEqual(["duration"]);
    const exec = (await api.get(`/api/v1/executions/${execId}`).expect(200)).body;
    expect(exec.state).toBe("completed");
    expect(exec.metrics).toContainEqual(expect.objectContaining({ name: "idle_seconds", unit: "s", better: "lower", vm: "local" }));
    expect(exec.exec_env.vms[0]).toMatchObject({ id: "local", ip: "127.0.0.1" });
    expect(exec.exec_env.vms[0].facts.cpu_count).toBeGreaterThan(0);
    expect(exec.steps.map((s: { step: string; state: string }) => `${s.step}:${s.state}`)).toEqual(["prepare:succeeded", "run:succeeded"]);
    const log = await api
      .get(`/api/v1/executions/${execId}/logs?step=run&attempt=1`)
      .expect(200)
      .expect("content-type", /text\/plain/);
    expect(log.text).toMatch(/BW_METRIC idle_seconds/);
  });

  it("gets a session with its executions, masked on both spellings", async () => {
    for (const path of [`/api/v1/sessions/${sessionId}`, `/api/v1/sessions/${sessionId}/`]) {
      const res = await api.get(path).set("X-Fields", "id,executions{id,state}").expect(200);
      expect(res.body.id).toBe(sessionId);
      expect(res.body.executions).toContainEqual({ id: execId, state: "completed" });
    }
    const list = await api.get("/api/v1/sessions").set("X-Fields", "id").expect(200);
    expect(list.body).toContainEqual({ id: sessionId });
  });

  it("answers a failing run with a problem that carries the exit code, and stays usable", async () => {
    const exec = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "failing" }).expect(200)).body;
    await api.post(`/api/v1/executions/${exec.id}/prepare`).expect(200);
    const res = await api
      .post(`/api/v1/executions/${exec.id}/run`)
      .expect(502)
      .expect("content-type", /application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "step_failed", status: 502, exit_code: 3, state: "run_failed" });
    expect(res.body.output_tail).toBeTruthy();
    expect((await api.get(`/api/v1/executions/${exec.id}`)).body.state).toBe("run_failed");
    // A failed run may be run again; the session keeps working.
    await api.post(`/api/v1/executions/${exec.id}/run`).expect(502);
    const again = (await api.get(`/api/v1/executions/${exec.id}`)).body;
    expect(again.steps.filter((s: { step: string }) => s.step === "run").map((s: { attempt: number }) => s.attempt)).toEqual([1, 2]);
    await api.post(`/api/v1/executions/${execId}/run`).expect(200);
  });

  it("serves a run's telemetry as JSON and CSV, and none for an execution created with telemetry off", async () => {
    // A run that sleeps 2 s: the local machine is sampled at its start, each second, and at its end.
    const exec = (
      await api
        .post(`/api/v1/sessions/${sessionId}/executions/`)
        .send({ tool: "idle", workload: "idle5", params: { seconds: 2 } })
        .expect(200)
    ).body;
    expect(exec).not.toHaveProperty("telemetry");
    await api.post(`/api/v1/executions/${exec.id}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${exec.id}/run`).expect(200);
    const json = (
      await api
        .get(`/api/v1/executions/${exec.id}/telemetry`)
        .expect(200)
        .expect("content-type", /application\/json/)
    ).body;
    expect(json).toMatchObject({ execution_id: exec.id, attempt: 1, enabled: true, interval_ms: 1000 });
    expect(json.machines).toHaveLength(1);
    const [machine] = json.machines;
    expect(machine.samples.length).toBeGreaterThanOrEqual(2);
    expect(machine.summary.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(["cpu_steal_mean", "cpu_steal_max", "cpu_iowait_mean", "run_queue_max"]),
    );
    const csv = await api
      .get(`/api/v1/executions/${exec.id}/telemetry?format=csv&attempt=1`)
      .expect(200)
      .expect("content-type", /text\/csv/);
    const lines = csv.text.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^attempt,machine_id,role,repetition,cpus,at,cpu_user,cpu_system,cpu_iowait,cpu_steal,/);
    expect(lines).toHaveLength(machine.samples.length + 1);
    // The run's metrics stay the tool's own.
    expect((await api.get(`/api/v1/executions/${exec.id}`)).body.metrics.map((m: { name: string }) => m.name)).toEqual(["idle_seconds"]);

    const off = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0", telemetry: false }).expect(200)).body;
    expect(off.telemetry).toBe(false);
    await api.get(`/api/v1/executions/${off.id}/telemetry`).expect(404);
    await api.post(`/api/v1/executions/${off.id}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${off.id}/run`).expect(200);
    expect((await api.get(`/api/v1/executions/${off.id}/telemetry`).expect(200)).body).toMatchObject({ enabled: false, machines: [] });
    // Bad input: a problem, and nothing made.
    const bad = await api
      .get(`/api/v1/executions/${exec.id}/telemetry?format=xml`)
      .expect(400)
      .expect("content-type", /application\/problem\+json/);
    expect(bad.body.code).toBe("validation_failed");
    await api.get(`/api/v1/executions/${exec.id}/telemetry?attempt=9`).expect(404);
    await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0", telemetry: "no" }).expect(400);
  });

  it("deletes the session: 204, gone from /sessions/, its record and executions still readable", async () => {
    await api.delete(`/api/v1/sessions/${sessionId}`).expect(204);
    const list = await api.get("/api/v1/sessions/").expect(200);
    expect(list.body.map((s: { id: string }) => s.id)).not.toContain(sessionId);
    expect((await api.get(`/api/v1/sessions/${sessionId}`).expect(410)).body).toMatchObject({ code: "session_gone", deleted: expect.any(String) });
    await api.delete(`/api/v1/sessions/${sessionId}/`).expect(404);
    const exec = await api.get(`/api/v1/executions/${execId}`).expect(200);
    expect(exec.body.metrics.length).toBeGreaterThan(0);
    const res = await api.post(`/api/v1/executions/${execId}/run`).expect(409);
    expect(res.body.code).toBe("session_deleted");
  });
});

describe("malformed requests", () => {
  let api: ReturnType<typeof request>;
  let sessionId: string;
  let execId: string;

  beforeAll(async () => {
    api = request(fx.app);
    sessionId = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" })).body.id;
    execId = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0" })).body.id;
  });

  const json = (body: unknown) => ({ body: JSON.stringify(body), type: "application/json" });
  const cases: Array<[string, string, string, { body?: string; type?: string; headers?: Record<string, string> }, number, string]> = [
    ["session: neither form", "post", "/api/v1/sessions/", json({}), 400, "validation_failed"],
    [
      "session: both forms",
      "post",
      "/api/v1/sessions/",
      json({ provider: "local", service: "default", config: { provider: { class: "local" }, a: {} } }),
      400,
      "validation_failed",
    ],
    ["session: wrong type", "post", "/api/v1/sessions/", json({ provider: 42, service: "default" }), 400, "validation_failed"],
    ["session: unknown field", "post", "/api/v1/sessions/", json({ provider: "local", service: "default", color: "red" }), 400, "validation_failed"],
    ["session: unknown stored provider", "post", "/api/v1/sessions/", json({ provider: "nowhere", service: "default" }), 400, "unknown_provider"],
    ["session: unknown service type", "post", "/api/v1/sessions/", json({ provider: "local", service: "huge" }), 400, "unknown_service_type"],
    ["session: unknown class", "post", "/api/v1/sessions/", json({ config: { provider: { class: "teleport" }, s: {} } }), 400, "unknown_provider_class"],
    ["session: two service sections", "post", "/api/v1/sessions/", json({ config: { provider: { class: "local" }, a: {}, b: {} } }), 400, "validation_failed"],
    [
      "session: existing-vm without host",
      "post",
      "/api/v1/sessions/",
      json({ config: { provider: { class: "existing-vm" }, s: { vm_user: "u" } } }),
      400,
      "invalid_configuration",
    ],
    ["session: bad JSON", "post", "/api/v1/sessions/", { body: '{"provider": "local",', type: "application/json" }, 400, "bad_json"],
    [
      "session: not JSON",
      "post",
      "/api/v1/sessions/",
      { body: "provider=local&service=default", type: "application/x-www-form-urlencoded" },
      415,
      "unsupported_media_type",
    ],
    ["session: array body", "post", "/api/v1/sessions/", json([{ provider: "local" }]), 400, "validation_failed"],
    ["execution: missing workload", "post", `/api/v1/sessions/${"SID"}/executions/`, json({ tool: "idle" }), 400, "validation_failed"],
    ["execution: unknown tool", "post", `/api/v1/sessions/${"SID"}/executions/`, json({ tool: "sysbenc", workload: "cpu" }), 400, "unknown_tool"],
    ["execution: unknown workload", "post", `/api/v1/sessions/${"SID"}/executions/`, json({ tool: "idle", workload: "idle7" }), 400, "unknown_workload"],
    ["execution: unknown session", "post", `/api/v1/sessions/${MISSING}/executions/`, json({ tool: "idle", workload: "idle0" }), 404, "not_found"],
    ["execution: session id not a uuid", "get", "/api/v1/sessions/not-a-uuid", {}, 400, "validation_failed"],
    ["unknown execution", "get", `/api/v1/executions/${MISSING}`, {}, 404, "not_found"],
    ["unknown benchmark", "get", "/api/v1/benchmarks/nope", {}, 404, "not_found"],
    ["bad mask", "get", "/api/v1/sessions/", { headers: { "X-Fields": "id,provider{id" } }, 400, "bad_fields_mask"],
    [
      "bad mask on a write",
      "post",
      "/api/v1/sessions/",
      { ...json({ provider: "local", service: "default" }), headers: { "X-Fields": "id}" } },
      400,
      "bad_fields_mask",
    ],
    ["run before prepare", "post", `/api/v1/executions/${"EID"}/run`, {}, 409, "wrong_state"],
    ["unknown query parameter", "get", "/api/v1/sessions/?page=2", {}, 400, "validation_failed"],
    ["log step not in the enum", "get", `/api/v1/executions/${"EID"}/logs?step=build`, {}, 400, "validation_failed"],
    ["no operation there", "get", "/api/v1/nothing/", {}, 404, "not_found"],
    ["method not an operation", "put", "/api/v1/sessions/", json({}), 404, "not_found"],
  ];

  const named = cases.map(([name, method, rawPath, req, status, code]) => ({ name, method, rawPath, req, status, code }));
  it.each(named)("$name → $status $code, store unchanged", async ({ method, rawPath, req, status, code }) => {
    const path = rawPath.replace("SID", sessionId).replace("EID", execId);
    const before = await storeSnapshot(fx.engine);
    let call = (api as unknown as Record<string, (p: string) => request.Test>)[method](path);
    for (const [k, v] of Object.entries(req.headers ?? {})) call = call.set(k, v);
    if (req.type) call = call.set("Content-Type", req.type);
    const res = await (req.body !== undefined ? call.send(req.body) : call);
    expect(res.status).toBe(status);
    expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String) });
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("says which session form was meant", async () => {
    const both = await api.post("/api/v1/sessions/").send({ provider: "local", service: "x", config: {} }).expect(400);
    expect(both.body.detail).toMatch(/not both/);
    const neither = await api.post("/api/v1/sessions/").send({ color: "red" }).expect(400);
    expect(neither.body.detail).toMatch(/Form A \{provider, service\} or Form B \{config\}/);
  });

  it("lists the valid choices for an unknown tool", async () => {
    const res = await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "nope", workload: "x" }).expect(400);
    expect(res.body.choices).toEqual(expect.arrayContaining(["idle", "sysbench", "fio", "iperf3", "stress-ng"]));
  });
});

describe("access with a token", () => {
  it("needs the bearer token on every operation but the docs", async () => {
    const api = request(fx.appWith({ token: "s3cret-token" }));
    await api.get("/api/v1/").expect(200);
    await api.get("/api/v1/openapi.json").expect(200);
    const res = await api.get("/api/v1/sessions/").expect(401);
    expect(res.body.code).toBe("unauthorized");
    await api.get("/api/v1/sessions/").set("Authorization", "Bearer wrong").expect(401);
    await api.delete(`/api/v1/sessions/${MISSING}`).expect(401);
    await api.get("/api/v1/sessions/").set("Authorization", "Bearer s3cret-token").expect(200);
  });
});

describe("persistence", () => {
  // The embedded database by default, and the same schema on a real PostgreSQL server.
  it.each(["pglite", "postgres"])(
    "keeps every session and execution across a restart, on %s",
    async (kind) => {
      const schema = kind === "postgres" ? await createTestSchema() : undefined;
      let fx = await openFixture({ persistent: true, engine: schema ? { databaseUrl: schema.url } : {} });
      try {
        let api = request(fx.app);
        const session = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body;
        const exec = (await api.post(`/api/v1/sessions/${session.id}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body;
        await api.post(`/api/v1/executions/${exec.id}/prepare`).expect(200);
        await api.post(`/api/v1/executions/${exec.id}/run`).expect(200);
        const before = (await api.get(`/api/v1/sessions/${session.id}`).expect(200)).body;
        fx = await fx.reopen();
        api = request(fx.app);
        expect((await api.get(`/api/v1/sessions/${session.id}`).expect(200)).body).toEqual(before);
        await api.get(`/api/v1/executions/${exec.id}/logs`).expect(200);
        await api.post(`/api/v1/executions/${exec.id}/run`).expect(200);
        if (schema) {
          const rows = await queryDatabase<{ n: number }>(fx.engine, "SELECT count(*)::int AS n FROM executions");
          expect(rows[0].n).toBe(1);
        }
      } finally {
        await fx.close();
        await schema?.drop();
      }
    },
    // A fresh PGlite opened twice: 10 s alone, over 60 s in CI beside the other files.
    180_000,
  );
});

describe("every operation of the seed, on both spellings, with a mask", () => {
  let api: ReturnType<typeof request>;
  beforeAll(() => {
    api = request(fx.app);
  });

  const newSession = async () => (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id as string;
  const newExec = async (sid: string) =>
    (await api.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id as string;

  it.each(["", "toggled"])(
    "answers each of the 13 operations%s",
    async (variant) => {
      const spell = (canonical: string) => (variant ? (canonical.endsWith("/") ? canonical.slice(0, -1) : canonical + "/") : canonical);
      const sid = await newSession();
      const eid = await newExec(sid);
      const prepared = await newExec(sid);
      await api.post(`/api/v1/executions/${prepared}/prepare`).expect(200);
      const doomed = await newSession();
      const calls: Array<[string, string, number, unknown?]> = [
        ["get", "/api/v1/benchmarks/", 200],
        ["get", "/api/v1/benchmarks/idle", 200],
        ["get", "/api/v1/providers/", 200],
        ["post", "/api/v1/sessions/", 200, { provider: "local", service: "default" }],
        ["get", "/api/v1/sessions/", 200],
        ["get", `/api/v1/sessions/${sid}`, 200],
        ["post", `/api/v1/sessions/${sid}/executions/`, 200, { tool: "idle", workload: "idle0" }],
        ["get", `/api/v1/sessions/${sid}/executions/`, 200],
        ["get", "/api/v1/executions/", 200],
        ["get", `/api/v1/executions/${eid}`, 200],
        ["post", `/api/v1/executions/${eid}/prepare`, 200],
        ["post", `/api/v1/executions/${prepared}/run`, 200],
      ];
      for (const [method, path, status, body] of calls) {
        const mask = path.includes("prepare") || path.includes("run") ? "started" : path.includes("providers") ? "name" : "id";
        const call = (api as unknown as Record<string, (p: string) => request.Test>)[method](spell(path)).set("X-Fields", mask);
        const res = await (body ? call.send(body as object) : call);
        expect(res.status, `${method} ${spell(path)}`).toBe(status);
        const items = Array.isArray(res.body) ? res.body : [res.body];
        expect(items.length, `${method} ${spell(path)}`).toBeGreaterThan(0);
        for (const item of items) expect(Object.keys(item), `${method} ${spell(path)}`).toEqual([mask]);
      }
      await api.delete(spell(`/api/v1/sessions/${doomed}`)).expect(204);
      expect((await api.get(`/api/v1/sessions/${doomed}`).expect(410)).body.code).toBe("session_gone");
    },
    60_000,
  );
});
