import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// What a client of the Benchmarking Suite sends, as Java's HttpURLConnection does with
// doOutput: Content-Type application/json and no bytes at all, on every POST and DELETE.
const JAVA_EMPTY = { headers: { "Content-Type": "application/json", Accept: "application/json", "Content-Length": "0" } };
const JSON_TYPE = { "Content-Type": "application/json" };

describe("answers the Benchmarking Suite's clients as the ancestor did", () => {
  let fx: Fixture;
  let http: Listening;

  beforeAll(async () => {
    fx = await openFixture();
    http = await listen(fx.app);
  });
  afterAll(async () => {
    await http.close();
    await fx.close();
  });

  const newSession = async (path = "/api/v1/sessions/") => {
    const res = await http.send("POST", path, { headers: JSON_TYPE, body: JSON.stringify({ provider: "local", service: "default" }) });
    expect(res.status, res.text).toBe(200);
    return (res.json as { id: string }).id;
  };
  const newExecution = async (sid: string, path = `/api/v1/sessions/${sid}/executions/`) => {
    const res = await http.send("POST", path, { headers: JSON_TYPE, body: JSON.stringify({ tool: "idle", workload: "idle0" }) });
    expect(res.status, res.text).toBe(200);
    return res.json as { id: string; state: string };
  };

  it("answers 200 with the record on every spelling of both creations", async () => {
    for (const path of ["/api/v1/sessions/", "/api/v1/sessions"]) {
      const sid = await newSession(path);
      for (const execPath of [`/api/v1/sessions/${sid}/executions/`, `/api/v1/sessions/${sid}/executions`]) {
        const exec = await newExecution(sid, execPath);
        expect(exec).toMatchObject({ state: "created" });
      }
    }
  });

  it("takes an empty application/json body on prepare, run and delete", async () => {
    const sid = await newSession();
    const { id } = await newExecution(sid);
    for (const step of ["prepare", "run"]) {
      const res = await http.send("POST", `/api/v1/executions/${id}/${step}`, JAVA_EMPTY);
      expect(res.status, `${step}: ${res.text}`).toBe(200);
      expect(res.json).toMatchObject({ started: expect.any(String), duration: expect.any(String) });
    }
    const deleted = await http.send("DELETE", `/api/v1/sessions/${sid}`, JAVA_EMPTY);
    expect(deleted.status, deleted.text).toBe(204);
  });

  it("takes {} on prepare, run and delete", async () => {
    const sid = await newSession();
    const { id } = await newExecution(sid);
    for (const step of ["prepare", "run"]) {
      const res = await http.send("POST", `/api/v1/executions/${id}/${step}`, { headers: JSON_TYPE, body: "{}" });
      expect(res.status, `${step}: ${res.text}`).toBe(200);
    }
    expect((await http.send("DELETE", `/api/v1/sessions/${sid}`, { headers: JSON_TYPE, body: "{}" })).status).toBe(204);
  });

  it("refuses any other body there, and changes nothing", async () => {
    const sid = await newSession();
    const { id } = await newExecution(sid);
    const bad: Array<[string, string, Record<string, string>, string, number]> = [
      ["POST", `/api/v1/executions/${id}/prepare`, JSON_TYPE, '{"force":true}', 400],
      ["POST", `/api/v1/executions/${id}/prepare`, JSON_TYPE, "{", 400],
      ["POST", `/api/v1/executions/${id}/run`, JSON_TYPE, "[]", 400],
      ["POST", `/api/v1/executions/${id}/prepare`, { "Content-Type": "text/plain" }, "go", 415],
      ["DELETE", `/api/v1/sessions/${sid}`, JSON_TYPE, '{"keep":true}', 400],
    ];
    for (const [method, path, headers, body, status] of bad) {
      const before = await storeSnapshot(fx.engine);
      const res = await http.send(method, path, { headers, body });
      expect(res.status, `${method} ${path} ${body}: ${res.text}`).toBe(status);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(await storeSnapshot(fx.engine), `${method} ${path} ${body} changed the store`).toBe(before);
    }
    const exec = await http.send("GET", `/api/v1/executions/${id}`);
    expect(exec.json).toMatchObject({ state: "created" });
  });

  it("takes no bytes under any Content-Type there, as HttpURLConnection sends without one set", async () => {
    const sid = await newSession();
    const { id } = await newExecution(sid);
    const formEmpty = { headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "0" } };
    expect((await http.send("POST", `/api/v1/executions/${id}/prepare`, formEmpty)).status).toBe(200);
    expect((await http.send("POST", `/api/v1/executions/${id}/run`, { headers: { "Content-Type": "text/plain", "Content-Length": "0" } })).status).toBe(200);
    expect((await http.send("DELETE", `/api/v1/sessions/${sid}`, formEmpty)).status).toBe(204);
    // A creation's body is required: no bytes there is still a 400 that creates nothing.
    const before = await storeSnapshot(fx.engine);
    const res = await http.send("POST", "/api/v1/sessions/", formEmpty);
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("still takes a bare POST and DELETE, with no body and no Content-Type", async () => {
    const sid = await newSession();
    const { id } = await newExecution(sid);
    expect((await http.send("POST", `/api/v1/executions/${id}/prepare`)).status).toBe(200);
    expect((await http.send("DELETE", `/api/v1/sessions/${sid}`)).status).toBe(204);
  });
});
