import { createTestSchema } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstorableStrings } from "./json-body.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// PostgreSQL text (and so PGlite's) holds neither NUL nor half a UTF-16 surrogate pair: such a
// string used to reach the database and come back as a 500.
const NUL = "x\u0000y";
const LONE = "\udfff";

describe.each(["pglite", "postgres"])("text the database cannot hold, on %s", (kind) => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let schema: Awaited<ReturnType<typeof createTestSchema>> | undefined;
  let sessionId: string;

  beforeAll(async () => {
    schema = kind === "postgres" ? await createTestSchema() : undefined;
    fx = await openFixture({ engine: { work: false, ...(schema ? { databaseUrl: schema.url } : {}) } });
    api = request(fx.app);
    sessionId = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await schema?.drop();
  });

  const inline = (name: string, service = "default") => ({ config: { provider: { class: "local", name }, [service]: {} } });
  const cases: Array<[string, () => string, unknown, string]> = [
    ["a NUL in an inline provider's name", () => "/api/v1/sessions/", inline(NUL), "/body/config/provider/name"],
    ["a NUL in a service-type key", () => "/api/v1/sessions/", inline("lab", NUL), "/body/config/x\\u0000y"],
    ["a NUL in a stored provider's name", () => "/api/v1/sessions/", { provider: NUL, service: "default" }, "/body/provider"],
    ["a lone surrogate in an inline provider's name", () => "/api/v1/sessions/", inline(LONE), "/body/config/provider/name"],
    ["a lone surrogate in a service-type key", () => "/api/v1/sessions/", inline("lab", `a${LONE}`), "/body/config/a\\udfff"],
    ["a lone surrogate in a stored service type", () => "/api/v1/sessions/", { provider: "local", service: LONE }, "/body/service"],
    ["a NUL in an execution's tool", () => `/api/v1/sessions/${sessionId}/executions/`, { tool: NUL, workload: "idle0" }, "/body/tool"],
  ];

  it.each(cases)("refuses %s with a 400 that says where, and changes nothing", async (_name, path, body, at) => {
    const before = await storeSnapshot(fx.engine);
    // JSON.stringify writes both as escapes (\u0000, \udfff): the body is valid JSON.
    const res = await api.post(path()).set("Content-Type", "application/json").send(JSON.stringify(body));
    expect([res.status, res.body.code], res.text).toEqual([400, "validation_failed"]);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.errors).toEqual([{ path: at, message: expect.stringMatching(/NUL|surrogate/) }]);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("still takes a well-formed pair and other control characters", async () => {
    const res = await api.post("/api/v1/sessions/").send(inline("lab \ud83d\ude00\t\u0001")).expect(200);
    expect(res.body.provider.id).toBe("lab \ud83d\ude00\t\u0001");
  });

  it.each([
    ["gzip", 400, "bad_json"],
    ["deflate", 400, "bad_json"],
    ["br", 400, "bad_json"],
    ["compress", 415, "unsupported_media_type"],
  ])("answers a body that is not %s-encoded as it says with %i %s, and changes nothing", async (encoding, status, code) => {
    const before = await storeSnapshot(fx.engine);
    const res = await api
      .post("/api/v1/sessions/")
      .set({ "Content-Type": "application/json", "Content-Encoding": encoding })
      .send(JSON.stringify({ provider: "local", service: "default" }));
    expect([res.status, res.body.code], res.text).toEqual([status, code]);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });
});

describe("unstorableStrings", () => {
  it("walks a body nested far deeper than the call stack, and names the place", () => {
    let deep: unknown = ["ok", NUL];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const found = unstorableStrings({ a: deep }, "/body");
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toBe(`/body/a${"/0".repeat(200_000)}/1`);
  });

  it("answers at most 20 places, the first ones in the body's order", () => {
    const found = unstorableStrings({ list: Array.from({ length: 1000 }, (_, i) => (i % 2 ? NUL : "ok")) }, "/body");
    expect(found.map((f) => f.path)).toEqual(Array.from({ length: 20 }, (_, i) => `/body/list/${2 * i + 1}`));
  });

  it("writes a key's ~, / and unstorable units as a JSON Pointer can show them", () => {
    const found = unstorableStrings({ "a/b~c\u0000": 1, "\ud800x": "fine" }, "/body");
    expect(found.map((f) => f.path)).toEqual(["/body/a~1b~0c\\u0000", "/body/\\ud800x"]);
    expect(found.map((f) => f.message)).toEqual([expect.stringMatching(/^is a name .*NUL/), expect.stringMatching(/^is a name .*surrogate \(\\ud800\)/)]);
  });
});
