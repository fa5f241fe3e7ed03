import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

const JSON_TYPE = { "Content-Type": "application/json" };

// Express routes match any case and either slash; the validator matches as the contract
// spells them. A spelling one accepts and the other does not must be refused as a whole.
describe("routing and validation see the same path", () => {
  let fx: Fixture;
  let http: Listening;
  let sid: string;

  beforeAll(async () => {
    fx = await openFixture();
    http = await listen(fx.app);
    const created = await http.send("POST", "/api/v1/sessions/", {
      headers: JSON_TYPE,
      body: JSON.stringify({ provider: "local", service: "default" }),
    });
    sid = (created.json as { id: string }).id;
  });
  afterAll(async () => {
    await http.close();
    await fx.close();
  });

  const expectRefused = async (method: string, path: string, body: unknown) => {
    const before = await storeSnapshot(fx.engine);
    const res = await http.send(method, path, { headers: JSON_TYPE, body: JSON.stringify(body) });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
    expect(res.headers["content-type"], `${method} ${path} ${res.status} ${res.text}`).toMatch(/^application\/problem\+json/);
    expect(await storeSnapshot(fx.engine), `${method} ${path} changed the store`).toBe(before);
    return res;
  };

  it("refuses the tester's upper-case session with an object as provider name", async () => {
    const res = await expectRefused("POST", "/API/V1/SESSIONS", { provider: { a: 1 }, service: "default" });
    expect(res.json).toMatchObject({ status: 404, code: "not_found" });
    const sessions = await http.send("GET", "/api/v1/sessions/");
    expect(sessions.text).not.toContain("[object Object]");
  });

  it("answers the tester's upper-case execution on a non-uuid session with 404, not 500", async () => {
    const res = await expectRefused("POST", "/API/V1/SESSIONS/7/EXECUTIONS", { tool: "idle", workload: "idle0" });
    expect(res.json).toMatchObject({ status: 404, code: "not_found" });
  });

  const bad = { provider: { a: 1 }, service: "default" };
  it.each([
    "/api/v1/SESSIONS/",
    "/api/v1/Sessions",
    "/Api/v1/sessions/",
    "/API/v1/sessions",
    "/api/V1/sessions/",
    "/api/v1//sessions/",
    "//api/v1/sessions/",
    "/api//v1/sessions/",
    "/api/v1/sessions//",
    "/api/v1/./sessions/",
    "/api/v1/./sessions",
    "/api/v1/x/../sessions/",
    "/api/v1%2Fsessions/",
    "/api/v1/sessions%2F",
    "/api/v1/sessions%2f",
    "/api%2Fv1%2Fsessions%2F",
    "/api/v1/%73essions/",
    "/api/v1/sessions/.",
    "/api/v1/sessions;/",
  ])("refuses a session created at %s as not found", async (path) => {
    const res = await expectRefused("POST", path, bad);
    expect(res.json).toMatchObject({ status: 404, code: "not_found" });
  });

  it.each(["/api/v1/sessions/", "/api/v1/sessions"])("validates the body at the contract's spellings (%s)", async (path) => {
    const res = await expectRefused("POST", path, bad);
    expect(res.json).toMatchObject({ status: 400, code: "validation_failed" });
  });

  it.each([
    (s: string) => `/api/v1/sessions/${s}/EXECUTIONS/`,
    (s: string) => `/api/v1/SESSIONS/${s}/executions/`,
    (s: string) => `/api/v1/sessions/${s.toUpperCase()}/Executions`,
    (s: string) => `/api/v1/sessions/${s}//executions/`,
    (s: string) => `/api/v1/sessions/${s}/executions//`,
    (s: string) => `/api/v1/sessions/${s}/./executions/`,
    (s: string) => `/api/v1/sessions/${s}%2Fexecutions/`,
    (s: string) => `/api/v1/sessions/${s}/executions%2F`,
  ])("creates no execution at a spelling the contract does not have (%#)", async (spell) => {
    const res = await expectRefused("POST", spell(sid), { tool: "idle", workload: "idle0" });
    expect(res.json).toMatchObject({ status: 404, code: "not_found" });
  });

  it.each([
    "/API/V1/SESSIONS/7/EXECUTIONS",
    "/api/v1/EXECUTIONS/7",
    "/api/v1/Executions/7/prepare",
    "/api/v1/executions/7/RUN",
    "/api/v1/executions/7/Logs",
    "/api/v1/BENCHMARKS/idle",
  ])("answers a non-uuid id at a case variant with a 4xx problem (%s)", async (path) => {
    for (const method of ["GET", "POST", "DELETE"]) await expectRefused(method, path, {});
  });

  it("still answers the contract's own spellings, both slashes", async () => {
    for (const path of [`/api/v1/sessions/${sid}`, `/api/v1/sessions/${sid}/`]) {
      expect((await http.send("GET", path)).status, path).toBe(200);
    }
    for (const path of [`/api/v1/sessions/${sid}/executions/`, `/api/v1/sessions/${sid}/executions`]) {
      const res = await http.send("POST", path, { headers: JSON_TYPE, body: JSON.stringify({ tool: "idle", workload: "idle0" }) });
      expect(res.status, path).toBe(200);
    }
  });
});

// The validator coerces `1e309` to Infinity, which passes an integer's limits (ajv checks none
// on a number JSON cannot write): the tester's generated `steps/run/1e309` answered 500.
describe("numbers JSON cannot write", () => {
  let fx: Fixture;
  let http: Listening;
  let eid: string;

  beforeAll(async () => {
    fx = await openFixture();
    http = await listen(fx.app);
    const session = await http.send("POST", "/api/v1/sessions/", {
      headers: JSON_TYPE,
      body: JSON.stringify({ provider: "local", service: "default" }),
    });
    const sid = (session.json as { id: string }).id;
    const exec = await http.send("POST", `/api/v1/sessions/${sid}/executions/`, {
      headers: JSON_TYPE,
      body: JSON.stringify({ tool: "idle", workload: "idle0" }),
    });
    eid = (exec.json as { id: string }).id;
  });
  afterAll(async () => {
    await http.close();
    await fx.close();
  });

  it.each([
    ["a path parameter", (e: string) => `/api/v1/executions/${e}/steps/run/1e309`, "/params/attempt"],
    ["a negative path parameter", (e: string) => `/api/v1/executions/${e}/steps/run/-1e309`, "/params/attempt"],
    ["a query parameter", (e: string) => `/api/v1/executions/${e}/logs?attempt=1e309`, "/query/attempt"],
  ])("refuses Infinity in %s with a 400", async (_name, path, where) => {
    const res = await http.send("GET", path(eid));
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: "validation_failed", errors: [{ path: where, message: "must be a finite number" }] });
  });

  it("refuses Infinity in a body, changing nothing", async () => {
    const before = await storeSnapshot(fx.engine);
    const body =
      '{"config": {"provider": {"class": "existing-vm"}, "vms": {"host": "10.0.0.1", "port": 1e309, "vm_user": "u", "ssh_private_key": "-----BEGIN OPENSSH PRIVATE KEY-----\\nx\\n-----END OPENSSH PRIVATE KEY-----\\n", "step_timeout": 1e999}}}';
    const res = await http.send("POST", "/api/v1/sessions/", { headers: JSON_TYPE, body });
    expect(res.status, res.text).toBe(400);
    // Not coerced from text, so the validator's own integer check catches it.
    expect(res.json).toMatchObject({
      code: "validation_failed",
      errors: expect.arrayContaining([expect.objectContaining({ path: "/body/config/vms/port" })]),
    });
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });
});
