import { getMetricsFromIterator, type PromMetrics } from "prom2javascript";
import { createTestSchema, startOpenStackDouble, startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { engineStore } from "@benchwright/engine/test-access";

// Issue 12's acceptance 1 and 2 on one full flow through the app, with its real pino logger
// writing into memory: a cloud session (the OpenStack double, a local HTTP server standing
// in for the cloud, which cannot be reached here; it hands out a real sshd's address, so the
// steps run over SSH), an execution that runs and one that fails, its log, bad requests, a
// deletion; every request with the API token.

const TOKEN = "bw-token-3f9c1d7e5a2b4c6d8e0f";
const PASSWORD_IN_A_BAD_BODY = "hunter2-correct-horse-battery";

/** A series of a family as prom2javascript reads it: a value, or a histogram's buckets, count and sum. */
type Sample = { labels: Record<string, string>; value?: number; count?: number; sum?: number; buckets?: Record<string, number> };

/** The text exposition, read by a Prometheus text-format parser. */
const parseMetrics = (text: string): Promise<PromMetrics> => getMetricsFromIterator(text.split("\n")[Symbol.iterator]());

describe("a full flow, logged and counted", () => {
  let sshd: SshdHarness;
  let double: Awaited<ReturnType<typeof startOpenStackDouble>>;
  let fx: Fixture;
  const answers: request.Response[] = [];
  const sent = new Map<request.Response, { id?: string; method: string; url: string }>();
  /** The executions prepared, in order, each with the X-Request-Id its prepare was sent with. */
  const prepares: Array<{ execution: string; reqId: string }> = [];
  let liveDuringSession: Array<{ kind: string }> = [];
  let metricsDuringSession: PromMetrics;
  let metricsAfter: PromMetrics;

  const api = (method: "get" | "post" | "delete", url: string, options: { id?: string; token?: string | null; body?: unknown } = {}) => {
    let req = request(fx.app)[method](url);
    if (options.token !== null) req = req.set("Authorization", `Bearer ${options.token ?? TOKEN}`);
    if (options.id) req = req.set("X-Request-Id", options.id);
    if (options.body !== undefined) req = req.send(options.body as object);
    return req.then((res) => {
      answers.push(res);
      sent.set(res, { id: options.id, method, url });
      return res;
    });
  };
  const scrape = async () => {
    const res = await api("get", "/metrics");
    expect(res.status, res.text).toBe(200);
    return parseMetrics(res.text);
  };

  beforeAll(async () => {
    sshd = await startSshd();
    double = await startOpenStackDouble({ sshHost: sshd.host, privateKey: sshd.privateKey });
    fx = await openFixture({
      token: TOKEN,
      engine: {
        outbound: { allowPrivate: true },
        providers: { cloud: { sshPort: sshd.port, pollIntervalMs: 5, stateTimeoutMs: 5000, sshPollIntervalMs: 20, sshTimeoutMs: 3000 } },
      },
    });
    const config = {
      provider: {
        class: "cloud",
        name: "openstack",
        driver: "openstack",
        auth_url: double.authUrl,
        auth_version: "3.x_password",
        access_id: double.username,
        secret_key: double.password,
        tenant: double.project,
      },
      small: {
        image: "ubuntu-22.04",
        size: "m1.small",
        vm_user: sshd.username,
        platform: "debian_12",
        network: "private",
        security_group: "default",
      },
    };
    const session = await api("post", "/api/v1/sessions/", { id: "flow-create-session", body: { config } });
    expect(session.status, session.text).toBe(200);
    const sid = session.body.id as string;
    const ok = (await api("post", `/api/v1/sessions/${sid}/executions/`, { body: { tool: "idle", workload: "idle0" } })).body.id as string;
    const failing = (await api("post", `/api/v1/sessions/${sid}/executions/`, { body: { tool: "idle", workload: "failing" } })).body.id as string;
    for (const exec of [ok, failing]) {
      prepares.push({ execution: exec, reqId: `flow-prepare-${exec}` });
      const prepared = await api("post", `/api/v1/executions/${exec}/prepare`, { id: `flow-prepare-${exec}` });
      expect(prepared.status, prepared.text).toBe(200);
    }
    expect((await api("post", `/api/v1/executions/${ok}/run`)).status).toBe(200);
    expect((await api("post", `/api/v1/executions/${failing}/run`)).status).toBe(502);
    expect((await api("get", `/api/v1/executions/${ok}/logs`)).status).toBe(200);
    // Errors: no token, a bad body holding credentials, an unknown path, an id that is not taken as it is.
    expect((await api("get", "/api/v1/sessions/", { token: null })).status).toBe(401);
    const bad = await api("post", "/api/v1/sessions/", {
      body: {
        config: {
          provider: { class: "existing-vm", name: "x" },
          vms: { host: "h", port: "not a port", vm_user: "u", password: PASSWORD_IN_A_BAD_BODY, ssh_private_key: sshd.privateKey },
        },
      },
    });
    expect(bad.status).toBe(400);
    expect((await api("get", "/api/v1/no/such/thing", { id: "x".repeat(129) })).status).toBe(404);
    liveDuringSession = await engineStore(fx.engine).resources.live(sid);
    metricsDuringSession = await scrape();
    expect((await api("delete", `/api/v1/sessions/${sid}`)).status).toBe(204);
    metricsAfter = await scrape();
  }, 120_000);

  afterAll(async () => {
    await fx?.close();
    await double?.stop();
    await sshd?.stop();
  });

  describe("its logs", () => {
    it("are pino JSON lines, each with a numeric level", () => {
      expect(fx.log.raw.length).toBeGreaterThan(answers.length);
      for (const line of fx.log.raw) {
        const entry = JSON.parse(line) as { level?: unknown; msg?: unknown; time?: unknown };
        expect(typeof entry.level, line).toBe("number");
        expect(typeof entry.msg, line).toBe("string");
        expect(typeof entry.time, line).toBe("string");
      }
    });

    it("give each request one id, sent back as X-Request-Id, on its lines, with its whole path", () => {
      const ended = fx.log.entries().filter((e) => e.reqId !== undefined && (e.msg === "request completed" || e.msg === "request errored"));
      const ids = new Set<string>();
      for (const res of answers) {
        const id = res.headers["x-request-id"] as string;
        expect(id, `the answer to ${sent.get(res)!.url} carries its id`).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
        ids.add(id);
        const given = sent.get(res)!.id;
        // A caller's acceptable id is kept; one too long is replaced by a fresh one.
        if (given && given.length <= 128) expect(id).toBe(given);
        if (given && given.length > 128) expect(id).not.toBe(given);
        const lines = ended.filter((e) => e.reqId === id);
        expect(lines, `the line of ${sent.get(res)!.url}`).toHaveLength(1);
        const [line] = lines as Array<{
          req: { url: string; method: string; headers: Record<string, unknown> };
          res: { statusCode: number };
          operation: string;
          level: number;
        }>;
        expect(line.req.url).toBe(sent.get(res)!.url);
        expect(line.req.method).toBe(sent.get(res)!.method.toUpperCase());
        // A few headers, not every one the client sent (supertest sends accept-encoding).
        expect(line.req.headers.host).toBeDefined();
        expect(line.req.headers).not.toHaveProperty("accept-encoding");
        expect(line.res.statusCode).toBe(res.status);
        expect(line.level).toBe(res.status >= 500 ? 50 : res.status >= 400 ? 40 : 30);
      }
      expect(ids.size, "no two requests share an id").toBe(answers.length);
      const created = ended.find((e) => e.reqId === "flow-create-session") as { operation: string };
      expect(created.operation).toBe("createSession");
    });

    it("name the session, execution, step and attempt on the engine's lines about a step", () => {
      const entries = fx.log.entries();
      const ran = entries.find((e) => typeof e.msg === "string" && /^run 1 of execution \S+ succeeded in /.test(e.msg));
      expect(ran).toMatchObject({ level: 30, step: "run", attempt: 1, session_id: expect.any(String), execution_id: expect.any(String) });
      const failed = entries.find((e) => typeof e.msg === "string" && /^run 1 of execution \S+ failed in /.test(e.msg));
      expect(failed).toMatchObject({ level: 40, step: "run", attempt: 1 });
      // The provider's lines while a prepare made the machine carry the step too.
      const provider = entries.find((e) => typeof e.msg === "string" && e.msg.includes("openstack:"));
      expect(provider).toMatchObject({ step: "prepare", attempt: 1, session_id: ran!.session_id });
    });

    it("give the engine's lines written for a request that request's id, and a step's lines no other", () => {
      const entries = fx.log.entries() as Array<{ msg: string; reqId?: string; execution_id?: string; step?: string }>;
      for (const { execution, reqId } of prepares) {
        const ended = entries.find((e) => e.execution_id === execution && e.step === "prepare" && /^prepare 1 of execution \S+ succeeded in /.test(e.msg));
        expect(ended, `the end of the prepare of ${execution}`).toMatchObject({ reqId });
        // Every line about this prepare, the provider's too, is the prepare request's.
        const lines = entries.filter((e) => e.execution_id === execution && e.step === "prepare");
        expect(lines.length).toBeGreaterThan(1);
        for (const line of lines) expect(line.reqId, line.msg).toBe(reqId);
      }
      // The first prepare made the machine: the cloud's lines are among its request's.
      expect(entries.filter((e) => e.reqId === prepares[0].reqId && e.msg.includes("openstack: launched machine"))).toHaveLength(1);
      // Deleting the session tore the machine down: those lines are the deletion's.
      const deletion = answers.find((res) => sent.get(res)!.method === "delete")!.headers["x-request-id"] as string;
      expect(entries.filter((e) => e.reqId === deletion && /openstack: deleted openstack:server /.test(e.msg))).toHaveLength(1);
    });

    it("hold no credential: not the token, the cloud's password or tokens, nor a key or password sent in a body", () => {
      const text = fx.log.raw.join("\n");
      const decoded =
        fx.log
          .entries()
          .map((e) => JSON.stringify(e, null, 0))
          .join("\n") + fx.logs.join("\n");
      const keyLines = sshd.privateKey.split("\n").filter((l) => l.length >= 16 && !l.startsWith("-----"));
      expect(keyLines.length).toBeGreaterThan(0);
      for (const secret of [TOKEN, double.password, ...double.tokens(), PASSWORD_IN_A_BAD_BODY, ...keyLines]) {
        expect(text.includes(secret), `a credential in the raw lines`).toBe(false);
        expect(decoded.includes(secret), `a credential in the decoded lines`).toBe(false);
      }
      // The Authorization header is logged, masked.
      const withAuth = fx.log.entries().filter((e) => (e.req as { headers?: Record<string, unknown> } | undefined)?.headers?.authorization);
      expect(withAuth.length).toBeGreaterThan(0);
      for (const e of withAuth) expect((e.req as { headers: Record<string, unknown> }).headers.authorization).toBe("***");
    });
  });

  describe("its metrics", () => {
    const value = (families: PromMetrics, name: string, labels: Record<string, string>) => {
      expect(families[name], name).toBeDefined();
      return (families[name].data as Sample[]).filter((m) => Object.entries(labels).every(([k, v]) => m.labels[k] === v));
    };
    const one = (families: PromMetrics, name: string, labels: Record<string, string> = {}) => {
      const found = value(families, name, labels);
      expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
      return found[0];
    };

    it("count requests by operation and status, with their latency", () => {
      const m = metricsDuringSession;
      expect(one(m, "benchwright_http_requests_total", { operation: "createSession", status: "200" }).value).toBe(1);
      expect(one(m, "benchwright_http_requests_total", { operation: "createSession", status: "400" }).value).toBe(1);
      expect(one(m, "benchwright_http_requests_total", { operation: "createExecution", status: "200" }).value).toBe(2);
      expect(one(m, "benchwright_http_requests_total", { operation: "prepareExecution", status: "200" }).value).toBe(2);
      expect(one(m, "benchwright_http_requests_total", { operation: "runExecution", status: "200" }).value).toBe(1);
      expect(one(m, "benchwright_http_requests_total", { operation: "runExecution", status: "502" }).value).toBe(1);
      expect(one(m, "benchwright_http_requests_total", { operation: "listSessions", status: "401" }).value).toBe(1);
      // A path no operation has is one label, whatever the path.
      expect(one(m, "benchwright_http_requests_total", { operation: "unmatched", status: "404" }).value).toBe(1);
      expect(one(m, "benchwright_http_request_duration_seconds", { operation: "createSession" }).count).toBe(2);
      expect(one(m, "benchwright_http_request_duration_seconds", { operation: "prepareExecution" }).count).toBe(2);
      // The scrape itself is counted once answered: the second scrape sees the first, and the deletion.
      expect(value(m, "benchwright_http_requests_total", { operation: "metrics" })).toHaveLength(0);
      expect(one(metricsAfter, "benchwright_http_requests_total", { operation: "metrics", status: "200" }).value).toBe(1);
      expect(one(metricsAfter, "benchwright_http_requests_total", { operation: "deleteSession", status: "204" }).value).toBe(1);
    });

    it("count steps by kind and outcome, with their durations, and none running at the end", () => {
      const m = metricsDuringSession;
      expect(one(m, "benchwright_steps_total", { step: "prepare", outcome: "succeeded" }).value).toBe(2);
      expect(one(m, "benchwright_steps_total", { step: "run", outcome: "succeeded" }).value).toBe(1);
      expect(one(m, "benchwright_steps_total", { step: "run", outcome: "failed" }).value).toBe(1);
      expect(value(m, "benchwright_steps_total", { step: "prepare", outcome: "failed" })).toHaveLength(0);
      const runs = one(m, "benchwright_step_duration_seconds", { step: "run", outcome: "succeeded" });
      expect(runs.count).toBe(1);
      expect(runs.sum).toBeGreaterThan(0);
      expect(runs.buckets!["+Inf"]).toBe(1);
      expect(one(m, "benchwright_step_duration_seconds", { step: "prepare", outcome: "succeeded" }).count).toBe(2);
      expect(one(m, "benchwright_steps_running").value).toBe(0);
      expect(one(metricsAfter, "benchwright_steps_running").value).toBe(0);
    });

    it("show the queue's depth, the SSH connections open and the cloud resources the ledger holds live", () => {
      const m = metricsDuringSession;
      // The embedded default's queue is this process's own: a job goes straight to its worker.
      expect(one(m, "benchwright_step_queue_depth", { queue: "in-process" }).value).toBe(0);
      // Every step ran over SSH on the one machine, one at a time: one pooled connection, kept while idle.
      expect(one(m, "benchwright_ssh_connections_open").value).toBe(1);
      // The session made a key pair, a server and its floating IP (its security group is configured).
      const kinds = ["openstack:floating_ip", "openstack:key_pair", "openstack:server"];
      expect(liveDuringSession.map((r) => r.kind).sort()).toEqual(kinds);
      const live = value(m, "benchwright_cloud_resources_live", {});
      expect(live.map((s) => [s.labels.provider, s.labels.driver, s.labels.kind, s.value]).sort()).toEqual(
        kinds.map((kind) => ["openstack", "openstack", kind, 1]),
      );
      // Deleting the session destroyed them: their series are gone.
      expect(value(metricsAfter, "benchwright_cloud_resources_live", {})).toHaveLength(0);
    });
  });
});

describe("GET /metrics", () => {
  // One engine for the file's HTTP settings: each test's app is made over it (`appWith`).
  let fx: Fixture;
  beforeAll(async () => {
    fx = await openFixture({ token: TOKEN });
  });
  afterAll(async () => fx?.close());

  it("needs the API token like every operation", async () => {
    const refused = await request(fx.app).get("/metrics").expect(401);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe("unauthorized");
    const ok = await request(fx.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`).expect(200);
    expect(ok.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("takes an admin's made token too, checked as the API checks it: a lower role is a 403, a revoked token a 401", async () => {
    const made = async (principal: string, role: string) =>
      (await request(fx.app).post("/api/v1/admin/tokens/").set("Authorization", `Bearer ${TOKEN}`).send({ principal, role }).expect(201)).body as {
        id: string;
        token: string;
      };
    const scrape = (token: string) => request(fx.app).get("/metrics").set("Authorization", `Bearer ${token}`);
    const admin = await made("ada", "admin");
    const operator = await made("otto", "operator");
    const ok = await scrape(admin.token).expect(200);
    expect(Object.keys(await parseMetrics(ok.text))).toContain("benchwright_http_requests_total");
    const lower = await scrape(operator.token).expect(403);
    expect(lower.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(lower.body.code).toBe("forbidden");
    expect((await scrape("bw_not-a-token-of-this-server").expect(401)).body.code).toBe("unauthorized");
    await request(fx.app).delete(`/api/v1/admin/tokens/${admin.id}`).set("Authorization", `Bearer ${TOKEN}`).expect(204);
    const revoked = await scrape(admin.token).expect(401);
    expect(revoked.body.detail).toContain("revoked");
    // No secret in the answer: neither the token sent nor the server's.
    expect(revoked.text).not.toContain(admin.token);
    expect(revoked.text).not.toContain(TOKEN);
  });

  it("is public with BENCHWRIGHT_METRICS_PUBLIC=true, and the API still needs the token", async () => {
    const app = fx.appWith({ token: TOKEN, metricsPublic: true });
    const ok = await request(app).get("/metrics").expect(200);
    expect(Object.keys(await parseMetrics(ok.text))).toContain("benchwright_http_requests_total");
    await request(app).get("/api/v1/sessions/").expect(401);
  });
});

describe("benchwright_step_queue_depth on PostgreSQL", () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let fx: Fixture;

  beforeAll(async () => {
    schema = await createTestSchema();
    // A server that runs no steps (BENCHWRIGHT_WORKER=false): what it sends stays in the shared queue.
    fx = await openFixture({ token: TOKEN, engine: { databaseUrl: schema.url, work: false } });
  }, 30_000);
  afterAll(async () => {
    await fx?.close();
    await schema?.drop();
  }, 30_000);

  it("counts the step jobs pg-boss holds that no worker has taken", async () => {
    const api = (method: "get" | "post", url: string) => request(fx.app)[method](url).set("Authorization", `Bearer ${TOKEN}`);
    const depth = async () => {
      const families = await parseMetrics((await api("get", "/metrics").expect(200)).text);
      return (families.benchwright_step_queue_depth.data as Sample[]).map((m) => [m.labels.queue, m.value]);
    };
    expect(await depth()).toEqual([["pg-boss", 0]]);
    const session = (await api("post", "/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id as string;
    for (let n = 1; n <= 2; n++) {
      const exec = (await api("post", `/api/v1/sessions/${session}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id as string;
      await api("post", `/api/v1/executions/${exec}/prepare`).set("Prefer", "respond-async").expect(202);
      expect(await depth()).toEqual([["pg-boss", n]]);
    }
  });
});
