import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "@benchwright/engine";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// Issue 25, point 5 and acceptance 3: webhooks on loopback are refused without the setting and
// delivered with it, once per event, signed, retried; a name that resolves to loopback is
// refused when connecting by a server without the setting, whatever was allowed at creation.

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: it keeps every request, and answers each path's next status in line (then 200). */
class Receiver {
  readonly received: Received[] = [];
  connections = 0;
  private readonly answers = new Map<string, Array<{ status: number; body?: string }>>();
  private server!: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "/";
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        const answer = this.answers.get(path)?.shift() ?? { status: 200 };
        res.writeHead(answer.status, { "Content-Type": "text/plain" }).end(answer.body ?? "ok");
      });
    });
    this.server.on("connection", () => this.connections++);
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  answer(path: string, ...answers: Array<{ status: number; body?: string }>): void {
    this.answers.set(path, answers);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// A bound, not a wait: on a loaded 2-core machine a delivery took more than 15 s (seen twice).
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Quick deliveries for the tests: looked for every 50 ms, tried again after 100 ms. */
const FAST = { pollMs: 50, retryDelaysMs: [100, 100, 100] };

const CHANGE = {
  id: randomUUID(),
  series: {
    tool: "sysbench",
    workload: "cpu",
    params: {},
    metric: "events_per_second",
    tags: {},
    provider: "lab",
    service_type: "small",
    unit: "events/s",
    better: "higher",
  },
  direction: "regression",
  size: -0.1,
  size_ci_low: -0.12,
  size_ci_high: -0.08,
  before: { mean: 1000, n: 30 },
  after: { mean: 900, n: 5 },
  facts_changed: [{ fact: "kernel", before: ["6.1"], after: ["6.5"] }],
};

let receiver: Receiver;
beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterAll(() => receiver?.stop());

describe("a webhook on loopback, without BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  beforeAll(async () => {
    fx = await openFixture({ engine: { webhooks: FAST } });
    api = request(fx.app);
  });
  afterAll(() => fx?.close());

  it.each(["127.0.0.1", "localhost", "[::1]"])("is refused at creation on %s: 400 webhook_url_refused, nothing stored, nothing called", async (host) => {
    const before = await storeSnapshot(fx.engine);
    const res = await api.post("/api/v1/webhooks/").send({ url: `http://${host}:${receiver.port}/` });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("webhook_url_refused");
    expect(res.body.detail).toContain("BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true");
    expect(res.body.detail).not.toContain("127.0.0.1:");
    expect(await storeSnapshot(fx.engine)).toBe(before);
    expect((await api.get("/api/v1/webhooks/").expect(200)).body).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it("refuses a URL with credentials, and one that is not http(s)", async () => {
    for (const url of ["https://user:pw@93.184.215.14/", "ftp://93.184.215.14/x"]) {
      const res = await api.post("/api/v1/webhooks/").send({ url });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe("webhook_url_refused");
      expect(res.text).not.toContain("pw@");
    }
  });
});

describe("webhooks with BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  beforeAll(async () => {
    fx = await openFixture({ engine: { webhooks: { ...FAST, allowPrivate: true } } });
    api = request(fx.app);
  });
  afterAll(() => fx?.close());

  async function create(body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
    const res = await api.post("/api/v1/webhooks/").send(body);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/api/v1/webhooks/${res.body.id}`);
    return res.body;
  }

  async function deliveries(webhookId: string) {
    return (await api.get(`/api/v1/webhooks/${webhookId}/deliveries`).expect(200)).body as Array<Record<string, unknown>>;
  }

  it("delivers an event once, signed, however many times it is enqueued; its secret is shown once", async () => {
    const url = `http://127.0.0.1:${receiver.port}/once`;
    const hook = await create({ url, events: ["regression"] });
    expect(hook.secret).toMatch(/^whsec_/);
    const read = (await api.get(`/api/v1/webhooks/${hook.id}`).expect(200)).body;
    expect(read).toEqual({ id: hook.id, url, events: ["regression"], plan_id: null, format: "json", created: expect.any(String) });
    expect(JSON.stringify((await api.get("/api/v1/webhooks/").expect(200)).body)).not.toContain(hook.secret);

    const key = `change:${CHANGE.id}`;
    const made = [
      await fx.engine.enqueueAlert("regression", key, null, { change: CHANGE }),
      await fx.engine.enqueueAlert("regression", key, null, { change: CHANGE }),
    ];
    expect(made).toEqual([1, 0]);
    // Not for a webhook that did not ask for the event.
    expect(await fx.engine.enqueueAlert("improvement", `change:${randomUUID()}`, null, {})).toBe(0);

    const [delivery] = await until(
      "the delivery",
      () => deliveries(hook.id),
      (d) => d[0]?.state === "delivered",
    );
    await new Promise((r) => setTimeout(r, 300));
    const got = receiver.at("/once");
    expect(got).toHaveLength(1);
    const [{ headers, body }] = got;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["benchwright-event"]).toBe("regression");
    expect(headers["idempotency-key"]).toBe(key);
    expect(headers["benchwright-delivery"]).toBe(delivery!.id);
    // Stripe's scheme, checked by hand and by the exported helper.
    const signature = String(headers["benchwright-signature"]);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature) ?? [];
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
    expect(v1).toBe(createHmac("sha256", hook.secret).update(`${t}.${body}`).digest("hex"));
    expect(verifyWebhookSignature(hook.secret, signature, body, 300)).toBe(true);
    expect(verifyWebhookSignature("whsec_wrong", signature, body, 300)).toBe(false);
    expect(JSON.parse(body)).toEqual({ id: key, event: "regression", created: expect.any(String), data: { change: CHANGE } });
    expect(delivery).toMatchObject({
      webhook_id: hook.id,
      event: "regression",
      event_key: key,
      attempts: 1,
      last_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery!.delivered_at).toEqual(expect.any(String));
  });

  it("tries again after failures: 500, 500, then 200 is three attempts, delivered", async () => {
    receiver.answer("/flaky", { status: 500, body: "down" }, { status: 500, body: "still down" });
    const hook = await create({ url: `http://127.0.0.1:${receiver.port}/flaky`, events: ["improvement"] });
    const key = `change:${randomUUID()}`;
    expect(await fx.engine.enqueueAlert("improvement", key, null, { change: { ...CHANGE, direction: "improvement" } })).toBe(1);
    const [delivery] = await until(
      "three attempts",
      () => deliveries(hook.id),
      (d) => d[0]?.state === "delivered",
    );
    expect(delivery).toMatchObject({ state: "delivered", attempts: 3, last_status: 200, last_error: null });
    const got = receiver.at("/flaky");
    expect(got).toHaveLength(3);
    // The same delivery each time: a receiver dedupes on the key.
    expect(new Set(got.map((g) => g.headers["benchwright-delivery"]))).toEqual(new Set([delivery!.id]));
    expect(new Set(got.map((g) => g.headers["idempotency-key"]))).toEqual(new Set([key]));
  });

  it("gives up once the schedule is spent, recording the last answer's status only", async () => {
    const hook = await create({ url: `http://127.0.0.1:${receiver.port}/down?token=abcdef123456`, events: ["schedule_failed"] });
    // A receiver's error page that echoes what it holds: none of it is recorded or logged.
    const echo = { status: 503, body: `no: ${hook.secret} token=abcdef123456 password=hunter2` };
    receiver.answer("/down?token=abcdef123456", echo, echo, echo, echo, echo);
    const runId = randomUUID();
    await fx.engine.enqueueAlert("schedule_failed", `schedule_failed:${runId}`, null, { plan_id: randomUUID(), run: { id: runId, state: "failed" } });
    const [delivery] = await until(
      "the delivery to fail",
      () => deliveries(hook.id),
      (d) => d[0]?.state === "failed",
    );
    expect(delivery).toMatchObject({ state: "failed", attempts: 4, last_status: 503, next_attempt_at: null, delivered_at: null });
    expect(delivery!.last_error).toBe("HTTP 503");
    for (const told of [JSON.stringify(delivery), fx.logs.join("\n")]) {
      expect(told).not.toContain(hook.secret);
      expect(told).not.toContain("hunter2");
    }
  });

  it("writes a Slack body for a Slack webhook, and only for its plan's events", async () => {
    const plan = await api
      .post("/api/v1/plans/")
      .send({ targets: [{ label: "here", provider: "local", service: "default" }], benchmarks: [{ tool: "idle", workload: "idle0" }] })
      .expect(201);
    const hook = await create({ url: `http://127.0.0.1:${receiver.port}/slack`, events: ["regression"], plan_id: plan.body.id, format: "slack" });
    expect(await fx.engine.enqueueAlert("regression", `change:${randomUUID()}`, null, { change: CHANGE })).toBe(1); // /once's, not this one
    const key = `change:${randomUUID()}`;
    expect(await fx.engine.enqueueAlert("regression", key, plan.body.id, { change: CHANGE })).toBe(2);
    await until(
      "the Slack delivery",
      () => deliveries(hook.id),
      (d) => d.length === 1 && d[0]?.state === "delivered",
    );
    const [got] = receiver.at("/slack");
    const body = JSON.parse(got!.body);
    expect(body.text).toBe("Regression: events_per_second of sysbench/cpu on lab/small -10.0% (CI -12.0% to -8.0%)");
    expect(body.blocks[0].text.type).toBe("mrkdwn");
    expect(body.blocks[0].text.text).toContain("kernel: 6.1 → 6.5");
  });

  it("reads, pages and deletes webhooks; a deleted one is a 404", async () => {
    const a = await create({ url: `http://127.0.0.1:${receiver.port}/a` });
    const page = await api.get("/api/v1/webhooks/?limit=1").expect(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers["x-next-cursor"]).toEqual(expect.any(String));
    const next = await api.get(`/api/v1/webhooks/?limit=100&cursor=${page.headers["x-next-cursor"]}`).expect(200);
    expect(next.body.map((w: { id: string }) => w.id)).toContain(a.id);
    expect((await api.get(`/api/v1/webhooks/${a.id}`).expect(200)).body.events).toEqual(["regression", "schedule_failed"]);
    await api.delete(`/api/v1/webhooks/${a.id}`).expect(204);
    expect((await api.get(`/api/v1/webhooks/${a.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/webhooks/${a.id}/deliveries`)).status).toBe(404);
    expect((await api.delete(`/api/v1/webhooks/${a.id}`)).status).toBe(404);
    expect((await api.get("/api/v1/webhooks/?cursor=abc")).body.code).toBe("validation_failed");
    const before = await storeSnapshot(fx.engine);
    const noPlan = await api.post("/api/v1/webhooks/").send({ url: `http://127.0.0.1:${receiver.port}/a`, plan_id: randomUUID() });
    expect(noPlan.status, noPlan.text).toBe(400);
    expect(noPlan.body).toMatchObject({ code: "validation_failed", errors: [{ path: "/body/plan_id" }] });
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });
});

describe("a webhook whose name resolves to loopback, sent by a server without the setting", () => {
  it("is refused when connecting, and the delivery records the refusal", async () => {
    // Made while allowed (the first server), sent by a server sharing its database without the setting.
    const first = await openFixture({ persistent: true, engine: { webhooks: { ...FAST, allowPrivate: true, deliver: false } } });
    const made = await request(first.app)
      .post("/api/v1/webhooks/")
      .send({ url: `http://localhost:${receiver.port}/later`, events: ["regression"] });
    expect(made.status, made.text).toBe(201);
    await first.engine.close();
    const fx = await openFixture({
      persistent: true,
      dataDir: first.dataDir,
      configDir: first.configDir,
      engine: { webhooks: { pollMs: 50, retryDelaysMs: [60_000] } },
    });
    try {
      const api = request(fx.app);
      const connectionsBefore = receiver.connections;
      expect(await fx.engine.enqueueAlert("regression", `change:${randomUUID()}`, null, { change: CHANGE })).toBe(1);
      const [delivery] = await until(
        "the refused attempt",
        async () => (await api.get(`/api/v1/webhooks/${made.body.id}/deliveries`).expect(200)).body,
        (d: Array<{ attempts: number; last_error: string | null }>) => d[0]?.attempts === 1,
      );
      expect(delivery).toMatchObject({ state: "pending", attempts: 1, last_status: null });
      expect(delivery!.last_error).toBe(
        "refused: localhost resolves to a loopback address, which webhooks do not call unless BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true",
      );
      expect(receiver.at("/later")).toEqual([]);
      expect(receiver.connections).toBe(connectionsBefore);
    } finally {
      await fx.close();
    }
  });
});
