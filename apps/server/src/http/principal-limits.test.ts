import express from "express";
import type { AuditEntry } from "@benchwright/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";
import { createApp } from "../app.js";
import type { Principal, Role } from "../principals/principal.js";

// The rate limit, the quotas and the audit log count per principal, as the authentication
// middleware sets it (here a stand-in in front of the app, reading a test header: the tokens are
// another module's). On PGlite, in one process, the same buckets and locks as on PostgreSQL.
describe("rate limit, quotas and audit per principal, on PGlite", () => {
  let fx: Fixture;
  let http: Listening;

  beforeAll(async () => {
    fx = await openFixture();
    // Operators may use `local` here (by default it is the admins'): the limits are what is tested.
    const app = createApp({
      engine: fx.engine,
      validateResponses: true,
      // A token every 50 s: no loaded machine takes that long over the four requests below (at 0.2 a
      // second one came back in time and her third request passed, in CI).
      rateLimit: { rps: 0.02, burst: 3 },
      quotas: { sessions: 1 },
      providerRoles: { local: "operator" },
    });
    const outer = express();
    outer.use((req, res, next) => {
      const id = req.get("x-test-principal");
      if (id) res.locals.principal = { id, role: (id === "root" ? "admin" : "operator") satisfies Role } satisfies Principal;
      next();
    });
    outer.use(app);
    http = await listen(outer);
  });
  afterAll(async () => {
    await http?.close();
    await fx?.close();
  });

  const as = (principal: string, method: string, path: string, body?: unknown) =>
    http.send(method, `/api/v1${path}`, {
      headers: { "X-Test-Principal": principal, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const local = { provider: "local", service: "default" };

  it("limits each principal on its own, and records who was refused", async () => {
    // alice: a session (her quota's one), a second refused by the quota, then the rate refuses her.
    const started = Date.now();
    expect((await as("alice", "POST", "/sessions/", local)).status).toBe(200);
    const overQuota = await as("alice", "POST", "/sessions/", local);
    expect(overQuota.status).toBe(429);
    expect(overQuota.json).toMatchObject({ code: "quota_exceeded" });
    expect((await as("alice", "GET", "/benchmarks/")).status).toBe(200);
    const limited = await as("alice", "POST", "/sessions/", local);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: "rate_limited" });
    // 0.02 a second, her 3 tokens spent: the next one 50 s after the first request, less the time
    // these took (a loaded machine takes seconds over them), rounded up.
    const elapsedS = (Date.now() - started) / 1000;
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeLessThanOrEqual(50);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(50 - elapsedS)));
    expect(limited.json).toMatchObject({ retry_after: retryAfter });
    // bob has his own bucket and his own quota.
    expect((await as("bob", "POST", "/sessions/", local)).status).toBe(200);

    await new Promise((r) => setTimeout(r, 200));
    const audit = await as("root", "GET", "/admin/audit?operation=createSession");
    expect(audit.status, audit.text).toBe(200);
    const entries = (audit.json as AuditEntry[]).map((e) => [e.principal, e.status, e.code]);
    expect(entries).toEqual([
      ["bob", 200, null],
      ["alice", 429, "rate_limited"],
      ["alice", 429, "quota_exceeded"],
      ["alice", 200, null],
    ]);
    const refused = await as("root", "GET", "/admin/audit?principal=alice&outcome=failure");
    expect((refused.json as AuditEntry[]).map((e) => e.code)).toEqual(["rate_limited", "quota_exceeded"]);
  });
});
