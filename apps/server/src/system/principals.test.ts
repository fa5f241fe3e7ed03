import { randomUUID } from "node:crypto";
import { loadSpec } from "@benchwright/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import type { Role } from "../principals/principal.js";
import { hasRole, requiredRoles } from "../principals/roles.js";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening, type RawResponse } from "../test-support/raw-http.js";
import { engineStore, queryDatabase, storeSnapshot } from "@benchwright/engine/test-access";

// Issue 28's acceptance 2: every operation of the contract, tried with a token of each role, an
// expired and a revoked token, and on another principal's session and execution. Allowed exactly
// where the operation's security requirement says (any answer the contract declares but 401/403),
// a 401/403 problem elsewhere, and nothing in the store changed by a refusal. The roles expected
// are read from the contract here too, by requiredRoles, which the server uses: so the test also
// checks that each operation names one role, and the server's answers that it enforces that one.

interface Spec {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
}
interface Example {
  value?: unknown;
}
interface Operation {
  id: string;
  template: string;
  method: string;
  role: Role;
  /** The request's body: the contract's first example, or one this test knows works. */
  body?: unknown;
  /** Required query parameters, from their examples. */
  query: Record<string, string>;
  statuses: Set<number>;
}

const spec = loadSpec() as unknown as Spec;
const BASE = spec.servers[0].url;
const ROLES = requiredRoles(spec as never);
const METHODS = ["get", "post", "put", "patch", "delete"];
const resolve = (ref: string): unknown =>
  ref
    .split("/")
    .slice(1)
    .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], spec);
const deref = <T>(x: unknown): T => (x && typeof x === "object" && "$ref" in x ? deref<T>(resolve((x as { $ref: string }).$ref)) : (x as T));

/** Bodies that do real work on this server (the `local` configuration, the instant `idle0`). */
const KNOWN_BODIES: Record<string, unknown> = {
  createSession: { provider: "local", service: "default" },
  createExecution: { tool: "idle", workload: "idle0" },
  createToken: { principal: "made-in-test", role: "viewer" },
  // Unshares: the callers' own session stays their own for the lists checked after.
  updateSession: { shared: false },
};

const OPERATIONS: Operation[] = Object.entries(spec.paths).flatMap(([template, item]) =>
  METHODS.filter((m) => item[m]).map((method) => {
    const op = item[method] as { operationId: string; parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> };
    const content = op.requestBody
      ? deref<{ content?: Record<string, { examples?: Record<string, Example>; example?: unknown }> }>(op.requestBody).content
      : undefined;
    const json = content?.["application/json"];
    const example = json?.example ?? Object.values(json?.examples ?? {}).map((e) => deref<Example>(e).value)[0];
    const parameters = [...((item.parameters as unknown[]) ?? []), ...(op.parameters ?? [])].map((p) =>
      deref<{ name: string; in: string; required?: boolean; example?: unknown; schema?: { example?: unknown } }>(p),
    );
    const query = Object.fromEntries(
      parameters.filter((p) => p.in === "query" && p.required).map((p) => [p.name, String(p.example ?? p.schema?.example ?? "")]),
    );
    return {
      id: op.operationId,
      template,
      method: method.toUpperCase(),
      role: ROLES.get(op.operationId)!,
      body: KNOWN_BODIES[op.operationId] ?? example,
      query,
      statuses: new Set(Object.keys(op.responses).map(Number)),
    };
  }),
);
/** Reads first, deletions last: a resource a deletion took is not there for the operations after it. */
const ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];
OPERATIONS.sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));

/** Whether the operation acts on one session or execution (or compares some): where ownership is checked. */
const ownedTarget = (op: Operation) => /\{(session_id|exec_id)\}/.test(op.template) || op.id === "compareExecutions";

interface Caller {
  name: string;
  token: string;
  role?: Role;
  /** The session and execution this caller names in paths. */
  target: "own" | "shared" | "foreign";
  /** Why every request of this caller is refused, when it is: an expired or revoked token. */
  refusedAs?: 401;
}

/**
 * The ids an event stream tells under `field` (distinct, in order), read from `url` with the
 * principal's token until `until` shows or `ms` pass.
 */
async function idsTold(url: string, token: string, field: string, until: string | undefined, ms: number): Promise<string[]> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  const pattern = new RegExp(`"${field}":"([0-9a-f-]{36})"`, "g");
  let told: string[] = [];
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" }, signal: stop.signal });
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      told = [...new Set([...text.matchAll(pattern)].map((m) => m[1]))];
      if (until && told.includes(until)) break;
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
  return told;
}

describe("roles, tokens and ownership, from the contract", () => {
  let fx: Fixture;
  let http: Listening;
  const BOOT = "boot-token-for-principals-test";
  const ids = { own: { session: "", execution: "", other: "" }, shared: { session: "", execution: "", other: "" } };
  const callers: Caller[] = [];
  let spareToken = "";

  const send = (token: string, method: string, path: string, body?: unknown) =>
    http.send(method, path, {
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const must = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await send(token, method, path, body);
    if (res.status >= 300) throw new Error(`setup: ${method} ${path} → ${res.status} ${res.text}`);
    return res.json as { id: string; token: string };
  };
  const tokenFor = async (principal: string, role: Role) => (await must(BOOT, "POST", `${BASE}/admin/tokens/`, { principal, role })).token;

  /** Every table but what records the request itself (the audit log, the rate limit's buckets): what a refusal must leave as it was. */
  const snapshot = () => storeSnapshot(fx.engine);

  beforeAll(async () => {
    fx = await openFixture();
    // Operators may use `local` here (the operator's setting; admin-only by default, checked below).
    // The expired and revoked tokens' hundred refusals are this test's point, not a flood (failed-auth-limit.test's).
    http = await listen(
      createApp({
        engine: fx.engine,
        token: BOOT,
        validateResponses: true,
        providerRoles: { local: "operator", inline: "admin" },
        failedAuthRate: { rps: 1_000, burst: 1_000 },
      }),
    );
    const otto = await tokenFor("otto", "operator");
    const session = async (token: string) => (await must(token, "POST", `${BASE}/sessions/`, { provider: "local", service: "default" })).id;
    const execution = async (token: string, sid: string) =>
      (await must(token, "POST", `${BASE}/sessions/${sid}/executions/`, { tool: "idle", workload: "idle0" })).id;
    ids.own.session = await session(otto);
    ids.own.execution = await execution(otto, ids.own.session);
    ids.shared.session = await session(otto);
    ids.shared.execution = await execution(otto, ids.shared.session);
    // A comparison names two executions: each caller's second one.
    ids.shared.other = await execution(otto, ids.shared.session);
    ids.own.other = await execution(otto, ids.own.session);
    await must(otto, "PATCH", `${BASE}/sessions/${ids.shared.session}`, { shared: true });
    // The API refuses an expiry already past: this token was made two minutes ago, for one.
    const past = new Date(Date.now() - 60_000);
    const expired = (await fx.engine.createToken({ principal: "old", role: "admin", expires: past.toISOString() }, new Date(past.getTime() - 60_000))).token!;
    const revoked = await tokenFor("rex", "admin");
    const revokedId = ((await must(BOOT, "GET", `${BASE}/admin/tokens/`)) as unknown as Array<{ id: string; principal: string }>).find(
      (t) => t.principal === "rex",
    )!.id;
    await must(BOOT, "DELETE", `${BASE}/admin/tokens/${revokedId}`);
    spareToken = (await must(BOOT, "POST", `${BASE}/admin/tokens/`, { principal: "spare", role: "viewer" })).id;
    callers.push(
      { name: "viewer", token: await tokenFor("vic", "viewer"), role: "viewer", target: "shared" },
      { name: "operator", token: otto, role: "operator", target: "own" },
      { name: "admin", token: await tokenFor("ada", "admin"), role: "admin", target: "own" },
      { name: "viewer on another's", token: await tokenFor("val", "viewer"), role: "viewer", target: "foreign" },
      { name: "operator on another's", token: await tokenFor("olga", "operator"), role: "operator", target: "foreign" },
      { name: "expired admin", token: expired, target: "own", refusedAs: 401 },
      { name: "revoked admin", token: revoked, target: "own", refusedAs: 401 },
    );
  });

  afterAll(async () => {
    await http?.close();
    await fx?.close();
  });

  const pathFor = (op: Operation, caller: Caller) => {
    const mine = caller.target === "shared" ? ids.shared : ids.own;
    const path = (BASE + op.template)
      .replace("{session_id}", mine.session)
      .replace("{exec_id}", mine.execution)
      .replace("{token_id}", spareToken)
      .replace("{step}", "prepare")
      .replace("{attempt}", "1")
      .replace("{benchmark_id}", "idle")
      .replace(/\{[a-z_]+\}/g, () => randomUUID());
    const query = { ...op.query, ...(op.id === "compareExecutions" ? { ids: `${mine.execution},${mine.other}` } : {}) };
    const search = new URLSearchParams(query).toString();
    return search ? `${path}?${search}` : path;
  };

  /** What the contract (and ownership) says this caller gets: allowed, or refused with this status. */
  const expected = (op: Operation, caller: Caller): "allowed" | 401 | 403 => {
    if (caller.refusedAs) return caller.refusedAs;
    if (!hasRole(caller.role!, op.role)) return 403;
    if (caller.role !== "admin" && ownedTarget(op)) {
      if (caller.target === "foreign") return 403;
      // A shared session is everyone's to read, its owner's alone to change.
      if (caller.target === "shared" && op.method !== "GET") return 403;
    }
    return "allowed";
  };

  const explain = (op: Operation, caller: Caller, path: string, res: RawResponse) =>
    `${caller.name} ${op.id} (${op.role}) ${op.method} ${path} → ${res.status} ${res.text.slice(0, 300)}`;

  it("answers every operation with each role, expired and revoked tokens and others' resources as the contract says", async () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(50);
    const tally = { allowed: 0, refused401: 0, refused403: 0, allowed2xx: 0 };
    for (const op of OPERATIONS) {
      // The refused callers first, the store compared around them; then the allowed ones.
      const refused = callers.filter((c) => expected(op, c) !== "allowed");
      const allowed = callers.filter((c) => expected(op, c) === "allowed");
      const before = await snapshot();
      for (const caller of refused) {
        const path = pathFor(op, caller);
        const res = await send(caller.token, op.method, path, op.body);
        const status = expected(op, caller);
        expect(res.status, explain(op, caller, path, res)).toBe(status);
        expect(res.headers["content-type"], explain(op, caller, path, res)).toMatch(/^application\/problem\+json/);
        expect(res.json, explain(op, caller, path, res)).toMatchObject({ status, code: status === 401 ? "unauthorized" : "forbidden" });
        expect(op.statuses, `${op.id} must declare ${status}`).toContain(status);
        if (status === 401) tally.refused401++;
        else tally.refused403++;
      }
      expect(await snapshot(), `${op.id}: a refusal changed the store`).toBe(before);
      for (const caller of allowed) {
        const path = pathFor(op, caller);
        const res = await send(caller.token, op.method, path, op.body);
        expect([401, 403], explain(op, caller, path, res)).not.toContain(res.status);
        expect(res.status < 500 || res.status === 502, explain(op, caller, path, res)).toBe(true);
        expect([...op.statuses], explain(op, caller, path, res)).toContain(res.status);
        tally.allowed++;
        if (res.status < 300) tally.allowed2xx++;
      }
    }
    console.log(`principals: ${OPERATIONS.length} operations × ${callers.length} callers: ${JSON.stringify(tally)}`);
    // Each kind of answer happened, many times: the table above is not vacuous.
    expect(tally.refused401).toBe(OPERATIONS.length * 2);
    expect(tally.refused403).toBeGreaterThan(OPERATIONS.length);
    expect(tally.allowed2xx).toBeGreaterThan(OPERATIONS.length);
  }, 300_000);

  it("tells each caller its own principal and role (GET /whoami), any role; an expired or revoked token is a 401", async () => {
    const told = async (token: string) => {
      const res = await send(token, "GET", `${BASE}/whoami`);
      return { status: res.status, body: res.json };
    };
    for (const [name, principal, role] of [
      ["viewer", "vic", "viewer"],
      ["operator", "otto", "operator"],
      ["admin", "ada", "admin"],
    ] as const) {
      const caller = callers.find((c) => c.name === name)!;
      expect(await told(caller.token), name).toEqual({ status: 200, body: { principal, role, bootstrap: false } });
    }
    expect(await told(BOOT)).toEqual({ status: 200, body: { principal: "bootstrap", role: "admin", bootstrap: true } });
    for (const caller of callers.filter((c) => c.refusedAs)) expect((await told(caller.token)).status, caller.name).toBe(401);
  });

  it("lists to a non-admin only its own and the shared sessions and executions", async () => {
    const [viewer, operator, admin, , foreign] = callers;
    const sessionsOf = async (c: Caller) => ((await send(c.token, "GET", `${BASE}/sessions/`)).json as Array<{ id: string }>).map((s) => s.id);
    const executionsOf = async (c: Caller) => ((await send(c.token, "GET", `${BASE}/executions/`)).json as Array<{ id: string }>).map((s) => s.id);
    // The deletions above may have taken the sessions out of the live list: ask for every state.
    const all = async (c: Caller) =>
      ((await send(c.token, "GET", `${BASE}/sessions/?state=active,deleting,deleted`)).json as Array<{ id: string }>).map((s) => s.id);
    expect(await all(operator)).toEqual(expect.arrayContaining([ids.own.session, ids.shared.session]));
    expect(await all(admin)).toEqual(expect.arrayContaining([ids.own.session, ids.shared.session]));
    expect(await all(viewer)).toEqual([ids.shared.session]);
    // The other operator made a session of its own above (createSession is an operator's): that one and the shared one.
    const foreigns = await all(foreign);
    expect(foreigns).toContain(ids.shared.session);
    expect(foreigns).not.toContain(ids.own.session);
    for (const id of foreigns.filter((x) => x !== ids.shared.session)) expect(await fx.engine.ownerOfSession(id)).toEqual({ owner: "olga", shared: false });
    expect(await sessionsOf(foreign)).not.toContain(ids.own.session);
    const foreignExecutions = await executionsOf(foreign);
    expect(foreignExecutions).toEqual(expect.arrayContaining([ids.shared.execution, ids.shared.other]));
    expect(foreignExecutions).not.toContain(ids.own.execution);
    expect(await executionsOf(operator)).toEqual(expect.arrayContaining([ids.own.execution, ids.shared.execution]));
  });

  it("shares a session at its creation or later, by its owner alone; its executions are its owner's whoever made them", async () => {
    const [viewer, operator, admin, , foreign] = callers;
    const made = await send(operator.token, "POST", `${BASE}/sessions/`, { provider: "local", service: "default", shared: true });
    expect(made.status, made.text).toBe(200);
    const session = (made.json as { id: string }).id;
    expect(made.json).toMatchObject({ owner: "otto", shared: true });
    expect((await send(viewer.token, "GET", `${BASE}/sessions/${session}`)).status).toBe(200);
    // An admin's execution in otto's session is otto's: read and deleted with the session.
    const execution = (await must(admin.token, "POST", `${BASE}/sessions/${session}/executions/`, { tool: "idle", workload: "idle0" })).id;
    expect(await fx.engine.ownerOfExecution(execution)).toEqual({ owner: "otto", shared: true });
    // Another operator may read it, not unshare it; a body that is not the contract's changes nothing either.
    const before = await snapshot();
    const theirs = await send(foreign.token, "PATCH", `${BASE}/sessions/${session}`, { shared: false });
    expect(theirs.status, theirs.text).toBe(403);
    const bad = await send(operator.token, "PATCH", `${BASE}/sessions/${session}`, { shared: "no" });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(await snapshot()).toBe(before);
    const unshared = await send(operator.token, "PATCH", `${BASE}/sessions/${session}`, { shared: false });
    expect(unshared.status, unshared.text).toBe(200);
    expect(unshared.json).toMatchObject({ id: session, owner: "otto", shared: false });
    expect((await send(viewer.token, "GET", `${BASE}/sessions/${session}`)).status).toBe(403);
    expect((await send(viewer.token, "GET", `${BASE}/executions/${execution}`)).status).toBe(403);
    await must(operator.token, "DELETE", `${BASE}/sessions/${session}`);
    expect((await send(operator.token, "PATCH", `${BASE}/sessions/${session}`, { shared: true })).status).toBe(404);
  });

  it("keeps `local` for admins by default: an operator's session on it is a 403 that makes nothing", async () => {
    const strict = await listen(createApp({ engine: fx.engine, token: BOOT, validateResponses: true }));
    try {
      const [, operator] = callers;
      const before = await snapshot();
      const res = await strict.send("POST", `${BASE}/sessions/`, {
        headers: { Authorization: `Bearer ${operator.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ provider: "local", service: "default" }),
      });
      expect(res.status, res.text).toBe(403);
      expect(res.json).toMatchObject({ code: "forbidden" });
      expect(await snapshot()).toBe(before);
      const inline = await strict.send("POST", `${BASE}/sessions/`, {
        headers: { Authorization: `Bearer ${operator.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ config: { provider: { class: "local", name: "mine" }, default: {} } }),
      });
      expect(inline.status, inline.text).toBe(403);
      const admin = await strict.send("POST", `${BASE}/sessions/`, {
        headers: { Authorization: `Bearer ${callers[2].token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ provider: "local", service: "default" }),
      });
      expect(admin.status, admin.text).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("shows a token once and keeps only its hash", async () => {
    const made = await must(BOOT, "POST", `${BASE}/admin/tokens/`, { principal: "once", role: "viewer", name: "shown once" });
    expect(made.token).toMatch(/^bw_[A-Za-z0-9_-]{43}$/);
    const read = (await send(BOOT, "GET", `${BASE}/admin/tokens/${made.id}`)).json as Record<string, unknown>;
    expect(read).toMatchObject({ id: made.id, principal: "once", role: "viewer", revoked: null });
    expect(read).not.toHaveProperty("token");
    expect((await send(BOOT, "GET", `${BASE}/admin/tokens/`)).text).not.toContain(made.token);
    expect(JSON.stringify(await queryDatabase(fx.engine, "SELECT * FROM api_tokens"))).not.toContain(made.token);
    expect(fx.logs.join("\n")).not.toContain(made.token);
    expect((await send(made.token, "GET", `${BASE}/sessions/`)).status).toBe(200);
    const bootstrap = await send(BOOT, "POST", `${BASE}/admin/tokens/`, { principal: "bootstrap", role: "admin" });
    expect(bootstrap.status).toBe(400);
    // Nor the audit log's name for nobody, nor an expiry already past: a clear 400, and nothing made.
    const tokensBefore = (await send(BOOT, "GET", `${BASE}/admin/tokens/`)).text;
    const anonymous = await send(BOOT, "POST", `${BASE}/admin/tokens/`, { principal: "anonymous", role: "admin" });
    expect(anonymous.status).toBe(400);
    expect(anonymous.json).toMatchObject({
      code: "validation_failed",
      detail: "/body/principal is a name the server gives principals itself (bootstrap, anonymous); name another",
    });
    const past = await send(BOOT, "POST", `${BASE}/admin/tokens/`, { principal: "late", role: "viewer", expires: "2020-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    expect(past.json).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/expires", message: expect.stringMatching(/^is not in the future/) }],
    });
    expect((await send(BOOT, "GET", `${BASE}/admin/tokens/`)).text).toBe(tokensBefore);
    // A write no token admitted is audited as nobody's, not as the bootstrap admin's.
    const refused = await send("bw_not-a-token", "POST", `${BASE}/admin/sweep`);
    expect(refused.status).toBe(401);
    const requestId = refused.headers["x-request-id"];
    // The entry is written once the answer has gone: looked for until it shows.
    let entry: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !entry; i++) {
      const page = (await send(BOOT, "GET", `${BASE}/admin/audit?operation=sweepResources&outcome=failure`)).json as Array<Record<string, unknown>>;
      entry = page.find((e) => e.request_id === requestId);
      if (!entry) await new Promise((r) => setTimeout(r, 100));
    }
    expect(entry).toMatchObject({ principal: "anonymous", status: 401, code: "unauthorized" });
  });

  it("streams an operator its own sessions' events and the shared ones', never another's; an admin all", async () => {
    const [olive, oscar] = [await tokenFor("olive", "operator"), await tokenFor("oscar", "operator")];
    const mine = (await must(olive, "POST", `${BASE}/sessions/`, { provider: "local", service: "default" })).id;
    const theirs = (await must(oscar, "POST", `${BASE}/sessions/`, { provider: "local", service: "default" })).id;
    await must(oscar, "POST", `${BASE}/sessions/${theirs}/executions/`, { tool: "idle", workload: "idle0" });
    // Olive's last, after oscar's: her stream has passed oscar's events when it shows this one.
    const last = (await must(olive, "POST", `${BASE}/sessions/`, { provider: "local", service: "default" })).id;
    // The whole log from its start, read until this stream's own last session shows or 5 s pass.
    const sessionsSeen = async (token: string, until: string): Promise<Set<string>> =>
      new Set(await idsTold(`http://127.0.0.1:${http.port}${BASE}/events?last_event_id=0`, token, "session_id", until, 5_000));
    const olives = await sessionsSeen(olive, last);
    expect(olives.has(mine) && olives.has(last)).toBe(true);
    expect(olives.has(ids.shared.session)).toBe(true);
    expect(olives.has(theirs)).toBe(false);
    expect(olives.has(ids.own.session)).toBe(false);
    const admins = await sessionsSeen(BOOT, theirs);
    expect([mine, theirs].every((id) => admins.has(id))).toBe(true);
  });
});

// Issue 28, what was still every viewer's: every run's figures become points of a series, so a
// series, its points and its changes are read as their executions are (their own, or of a shared
// session); a plan run's sessions are its starter's and shared, so every viewer reads the
// results of the team's campaigns; a webhook's URL may hold the receiver's credential, so
// webhooks are an admin's.
describe("others' results: series, points, changes, plan runs' sessions and webhooks", () => {
  let fx: Fixture;
  let http: Listening;
  const BOOT = "boot-token-for-results-test";
  const token: Record<"otto" | "olga" | "vic" | "ada", string> = { otto: "", olga: "", vic: "", ada: "" };
  /** The executions of tool `seen` (one series), by whose they are, and olga's one of tool `hers` (a series of hers alone). */
  const runs = { otto: "", olga: "", shared: "", hers: "" };
  const changes = { olga: "", shared: "" };
  let seriesId = "";
  let hersId = "";

  const send = (as: string, method: string, path: string, body?: unknown) =>
    http.send(method, `${BASE}${path}`, {
      headers: { Authorization: `Bearer ${as}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const must = async <T = { id: string; token: string }>(as: string, method: string, path: string, body?: unknown): Promise<T> => {
    const res = await send(as, method, path, body);
    if (res.status >= 300) throw new Error(`setup: ${method} ${path} → ${res.status} ${res.text}`);
    return res.json as T;
  };
  const idsOf = async (as: string, path: string) => (await must<Array<{ id: string }>>(as, "GET", path)).map((x) => x.id);
  /** An execution of `tool` that ran once in the session. */
  const ran = async (as: string, sessionId: string, tool: string) => {
    const { id } = await must(as, "POST", `/sessions/${sessionId}/executions/`, { tool, workload: "one" });
    await must(as, "POST", `/executions/${id}/prepare`);
    await must(as, "POST", `/executions/${id}/run`);
    expect((await must<{ state: string }>(as, "GET", `/executions/${id}`)).state).toBe("completed");
    return id;
  };
  /** A change recorded at a point of the series, and its event, as the checker records one (its finding is series.test.ts's). */
  const changeAt = async (series: string, executionId: string) => {
    const [point] = await queryDatabase<{ seq: number; at: Date }>(fx.engine, "SELECT seq, at FROM series_points WHERE series_id = $1 AND execution_id = $2", [
      series,
      executionId,
    ]);
    const side = { mean: 5, n: 1 };
    const change = { id: randomUUID(), series_id: series, point_seq: point.seq, at: point.at, execution_id: executionId, direction: "regression" as const };
    const recorded = await engineStore(fx.engine).series.recordChange(
      { ...change, size: -0.2, size_ci_low: null, size_ci_high: null, p_value: 0.01, before: side, after: side, facts_changed: [] },
      1,
      (row) => ({
        type: "change.detected",
        session_id: null,
        execution_id: row.execution_id,
        data: { change_id: row.id, series_id: row.series_id, direction: row.direction, size: row.size },
      }),
    );
    return recorded!.change.id;
  };
  /** The ids of the changes told on the principal's stream of events, read from its start until `until` shows or 3 s pass. */
  const changesTold = (as: string, until?: string): Promise<string[]> =>
    idsTold(`http://127.0.0.1:${http.port}${BASE}/events?last_event_id=0&types=change.detected`, as, "change_id", until, 3_000);

  beforeAll(async () => {
    fx = await openFixture();
    http = await listen(createApp({ engine: fx.engine, token: BOOT, validateResponses: true, providerRoles: { local: "operator", inline: "admin" } }));
    for (const tool of ["seen", "hers"]) dropDefinition(fx.configDir, { id: tool, workload: "one", run: "echo 'BW_METRIC speed 5 ops/s'" });
    await must(BOOT, "GET", "/benchmarks/seen");
    for (const [who, role] of [
      ["otto", "operator"],
      ["olga", "operator"],
      ["vic", "viewer"],
      ["ada", "admin"],
    ] as const)
      token[who] = (await must(BOOT, "POST", "/admin/tokens/", { principal: who, role })).token;
    const session = async (as: string) => (await must(as, "POST", "/sessions/", { provider: "local", service: "default" })).id;
    const [ottos, olgas, shared] = [await session(token.otto), await session(token.olga), await session(token.olga)];
    await must(token.olga, "PATCH", `/sessions/${shared}`, { shared: true });
    runs.otto = await ran(token.otto, ottos, "seen");
    runs.olga = await ran(token.olga, olgas, "seen");
    runs.shared = await ran(token.olga, shared, "seen");
    runs.hers = await ran(token.olga, olgas, "hers");
    [seriesId] = await idsOf(BOOT, "/series/?tool=seen");
    [hersId] = await idsOf(BOOT, "/series/?tool=hers");
    changes.olga = await changeAt(seriesId, runs.olga);
    changes.shared = await changeAt(seriesId, runs.shared);
  }, 120_000);

  afterAll(async () => {
    await http?.close();
    await fx?.close();
  });

  it("shows an operator the points and changes of its own and shared executions, never another's; a series of only another's is a 403", async () => {
    const points = async (as: string) => (await must<Array<{ execution_id: string }>>(as, "GET", `/series/${seriesId}/points`)).map((p) => p.execution_id);
    expect(await points(BOOT)).toEqual([runs.otto, runs.olga, runs.shared]);
    expect(await points(token.ada)).toEqual([runs.otto, runs.olga, runs.shared]);
    expect(await points(token.otto)).toEqual([runs.otto, runs.shared]);
    expect(await points(token.olga)).toEqual([runs.olga, runs.shared]);
    expect(await points(token.vic)).toEqual([runs.shared]);

    // The series as otto sees it: two points, the latest the shared one, one open change.
    const [series] = await must<Array<{ id: string; points: number; latest: { execution_id: string }; open_changes: number }>>(
      token.otto,
      "GET",
      "/series/?tool=seen",
    );
    expect(series).toMatchObject({ id: seriesId, points: 2, latest: { execution_id: runs.shared }, open_changes: 1 });
    expect(await must(token.otto, "GET", `/series/${seriesId}`)).toEqual(series);
    expect((await must<{ points: number; open_changes: number }>(BOOT, "GET", `/series/${seriesId}`)).points).toBe(3);

    expect(await idsOf(token.otto, `/series/${seriesId}/changes`)).toEqual([changes.shared]);
    expect(await idsOf(token.otto, "/changes/")).toEqual([changes.shared]);
    expect(await idsOf(token.olga, "/changes/?state=open")).toEqual([changes.olga, changes.shared]);
    expect(await idsOf(token.ada, "/changes/")).toEqual([changes.olga, changes.shared]);
    expect((await must(token.otto, "GET", `/changes/${changes.shared}`)).id).toBe(changes.shared);

    // Olga's alone: not listed to otto, and a 403 as another's session is (not a 404: it exists).
    expect(await idsOf(token.otto, "/series/")).toEqual([seriesId]);
    expect(await idsOf(token.olga, "/series/")).toEqual([seriesId, hersId]);
    for (const path of [`/series/${hersId}`, `/series/${hersId}/points`, `/series/${hersId}/changes`, `/changes/${changes.olga}`]) {
      const res = await send(token.otto, "GET", path);
      expect(res.status, `${path}: ${res.text}`).toBe(403);
      expect(res.json).toMatchObject({ code: "forbidden" });
      expect(res.text).not.toContain(runs.hers);
    }
    expect((await send(token.otto, "GET", `/series/${randomUUID()}`)).status).toBe(404);
    // Paged one by one, otto's pages skip olga's point and change.
    const paged: string[] = [];
    let cursor = "";
    do {
      const res = await send(token.otto, "GET", `/series/${seriesId}/points?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      paged.push(...(res.json as Array<{ execution_id: string }>).map((p) => p.execution_id));
      cursor = String(res.headers["x-next-cursor"] ?? "");
    } while (cursor);
    expect(paged).toEqual([runs.otto, runs.shared]);
  });

  it("tells an operator's stream of events only the changes it may read", async () => {
    // The admin's stream shows both, in order: the other streams have passed olga's change when they show the shared one.
    expect(await changesTold(BOOT, changes.shared)).toEqual([changes.olga, changes.shared]);
    expect(await changesTold(token.otto, changes.shared)).toEqual([changes.shared]);
    expect(await changesTold(token.vic, changes.shared)).toEqual([changes.shared]);
    expect(await changesTold(token.olga, changes.shared)).toEqual([changes.olga, changes.shared]);
  });

  it("makes a plan run's sessions its starter's and shared: every viewer reads them, their executions and their points", async () => {
    const plan = await must(token.ada, "POST", "/plans/", {
      targets: [{ label: "here", provider: "local", service: "default" }],
      benchmarks: [{ tool: "seen", workload: "one" }],
    });
    const { id: runId } = await must(token.ada, "POST", `/plans/${plan.id}/runs/`);
    let run: { state: string; sessions: Record<string, string>; cells: Array<{ execution_id: string }> };
    const end = Date.now() + 60_000;
    for (;;) {
      run = await must(token.vic, "GET", `/plans/${plan.id}/runs/${runId}`);
      if (["completed", "failed", "cancelled"].includes(run.state) || Date.now() > end) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(run.state).toBe("completed");
    const sessionId = run.sessions.here;
    const executionId = run.cells[0].execution_id;
    expect(await fx.engine.ownerOfSession(sessionId)).toEqual({ owner: "ada", shared: true });
    expect((await queryDatabase(fx.engine, "SELECT created_by FROM plans WHERE id = $1", [plan.id]))[0]).toEqual({ created_by: "ada" });
    expect((await queryDatabase(fx.engine, "SELECT started_by FROM plan_runs WHERE id = $1", [runId]))[0]).toEqual({ started_by: "ada" });
    for (const as of [token.vic, token.otto, token.olga]) {
      // The run deleted its session: read, not refused, it answers 410 Gone (a 403 comes first for another's).
      expect((await send(as, "GET", `/sessions/${sessionId}`)).status).toBe(410);
      expect((await send(as, "GET", `/executions/${executionId}`)).status).toBe(200);
      const points = await must<Array<{ execution_id: string; plan_run_id: string | null }>>(as, "GET", `/series/${seriesId}/points`);
      expect(points.at(-1)).toMatchObject({ execution_id: executionId, plan_run_id: runId });
      expect(await idsOf(as, "/executions/")).toContain(executionId);
    }
    // Shared for reading: its owner's to change, not another operator's.
    expect((await send(token.otto, "DELETE", `/sessions/${sessionId}`)).status).toBe(403);
  }, 90_000);

  it("keeps webhooks an admin's: a viewer's or an operator's read is a 403", async () => {
    const hook = randomUUID();
    for (const as of [token.vic, token.otto]) {
      for (const path of ["/webhooks/", `/webhooks/${hook}`, `/webhooks/${hook}/deliveries`]) {
        const res = await send(as, "GET", path);
        expect(res.status, `${path}: ${res.text}`).toBe(403);
        expect(res.json).toMatchObject({ code: "forbidden" });
      }
    }
    expect((await send(token.ada, "GET", "/webhooks/")).status).toBe(200);
    expect((await send(token.ada, "GET", `/webhooks/${hook}`)).status).toBe(404);
  });
});
