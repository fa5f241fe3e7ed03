import { storeSnapshot } from "@benchwright/engine/test-access";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

const BOOT = "boot-token-for-benchmark-definitions-test";
const BASE = "/api/v1";

// Issue 38 point 2 through HTTP: admin writes only, every problem of a bad definition in one 400.
describe("benchmark definitions through the API", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  const tokens: Record<string, string> = {};
  const send = (role: string, method: "get" | "put" | "delete", path: string, body?: object) => {
    const req = api[method](`${BASE}${path}`).set("Authorization", `Bearer ${tokens[role]}`);
    return body === undefined ? req : req.send(body);
  };
  const echo = (run = "bw_metric answer 42 1") => ({
    id: "team-echo",
    tool_name: "Echo",
    parser: "keyvalue",
    metrics: { answer: { unit: "1", better: "higher" } },
    workloads: [{ id: "answer", scripts: { run } }],
  });

  beforeAll(async () => {
    fx = await openFixture({ token: BOOT });
    api = request(fx.app);
    tokens.admin = BOOT;
    for (const role of ["viewer", "operator"]) {
      const res = await api
        .post(`${BASE}/admin/tokens/`)
        .set("Authorization", `Bearer ${BOOT}`)
        .send({ principal: `p-${role}`, role })
        .expect(201);
      tokens[role] = res.body.token;
    }
  }, 60_000);

  afterAll(async () => {
    await fx?.close();
  }, 60_000);

  it("refuses a viewer's and an operator's writes (403), storing nothing", async () => {
    const before = await storeSnapshot(fx.engine);
    for (const role of ["viewer", "operator"]) {
      expect((await send(role, "put", "/benchmarks/team-echo", echo())).status).toBe(403);
      expect((await send(role, "delete", "/benchmarks/team-echo")).status).toBe(403);
    }
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("answers each bad definition with one 400 listing every problem at its JSON Pointer, storing nothing", async () => {
    const before = await storeSnapshot(fx.engine);
    const bads: Array<[object, string]> = [
      [echo("if then ("), "/body/workloads/0/scripts/run"],
      [{ ...echo(), parser: "nope" }, "/body/parser"],
      [{ ...echo(), metrics: { answer: { better: "higher" } } }, "/body/metrics/answer/unit"],
      [{ ...echo(), workloads: [...echo().workloads, ...echo().workloads] }, "/body/workloads/1/id"],
    ];
    for (const [body, path] of bads) {
      const res = await send("admin", "put", "/benchmarks/team-echo", body);
      expect(res.status, res.text).toBe(400);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe("invalid_definition");
      expect(res.body.errors).toContainEqual(expect.objectContaining({ path }));
    }
    const all = {
      ...echo("if then ("),
      parser: "nope",
      metrics: { answer: { better: "higher" } },
      workloads: [...echo("if then (").workloads, ...echo().workloads],
    };
    const res = await send("admin", "put", "/benchmarks/team-echo", all);
    expect((res.body.errors as Array<{ path: string }>).map((e) => e.path)).toEqual(
      expect.arrayContaining(["/body/parser", "/body/metrics/answer/unit", "/body/workloads/1/id", "/body/workloads/0/scripts/run"]),
    );
    expect((await send("admin", "put", "/benchmarks/idle", { ...echo(), id: "idle" })).body.code).toBe("read_only");
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("creates, versions, lists and deletes one, each write in the audit log", async () => {
    const created = await send("admin", "put", "/benchmarks/team-echo", echo());
    expect(created.status, created.text).toBe(201);
    expect(created.headers.location).toBe(`${BASE}/benchmarks/team-echo`);
    expect(created.body).toMatchObject({ id: "team-echo", source: "api", version: 1, read_only: false });
    const again = await send("admin", "put", "/benchmarks/team-echo", echo("bw_metric answer 43 1"));
    expect(again.status, again.text).toBe(200);
    expect(again.body.version).toBe(2);
    const listed = (await send("viewer", "get", "/benchmarks/")).body as Array<{ id: string; source: string }>;
    expect(listed).toContainEqual(expect.objectContaining({ id: "team-echo", source: "api", version: 2 }));
    expect(listed).toContainEqual(expect.objectContaining({ id: "idle", source: "builtin", read_only: true }));
    const versions = (await send("viewer", "get", "/benchmarks/team-echo/versions/")).body as Array<{ version: number; digest: string }>;
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[1]!.digest).toBe(created.body.digest);
    expect((await send("viewer", "get", "/benchmarks/team-echo/versions/1")).body.definition).toEqual(echo());
    expect((await send("admin", "delete", "/benchmarks/team-echo")).status).toBe(204);
    expect((await send("viewer", "get", "/benchmarks/team-echo")).status).toBe(404);
    expect((await send("viewer", "get", "/benchmarks/team-echo/versions/2")).status).toBe(200);
    const audit = (await send("admin", "get", "/admin/audit?operation=putBenchmark")).body as Array<{ status: number }>;
    expect(audit.map((e) => e.status)).toEqual(expect.arrayContaining([201, 200, 400, 403, 409]));
  });

  // A built-in's alias is one of its names: idle answers to `testing` (the Benchmarking Suite's).
  it("refuses a built-in's alias as a definition's id (409) or as one of its aliases (400), and another definition's alias as an id", async () => {
    const before = await storeSnapshot(fx.engine);
    const asAlias = await send("admin", "put", "/benchmarks/testing", { ...echo(), id: "testing" });
    expect(asAlias.status, asAlias.text).toBe(409);
    expect(asAlias.body).toMatchObject({ code: "read_only", detail: "Benchmark 'testing' is an alias of the built-in tool 'idle'; it is read-only" });
    const claiming = await send("admin", "put", "/benchmarks/team-echo", { ...echo(), aliases: ["testing", "sysbench", "echo"] });
    expect(claiming.status, claiming.text).toBe(400);
    expect(claiming.body.code).toBe("invalid_definition");
    expect(claiming.body.errors).toEqual([
      { path: "/body/aliases/0", message: "'testing' is already a name of the built-in tool 'idle'" },
      { path: "/body/aliases/1", message: "'sysbench' is already a name of the built-in tool 'sysbench'" },
    ]);
    expect(await storeSnapshot(fx.engine)).toBe(before);

    expect((await send("admin", "put", "/benchmarks/team-echo", { ...echo(), aliases: ["echo"] })).status).toBe(201);
    const taken = await send("admin", "put", "/benchmarks/echo", { ...echo(), id: "echo" });
    expect(taken.status, taken.text).toBe(400);
    expect(taken.body.errors).toEqual([{ path: "/body/id", message: "'echo' is an alias of the benchmark 'team-echo' written through the API" }]);
    // Its own aliases are its own: the next version keeps them.
    expect((await send("admin", "put", "/benchmarks/team-echo", { ...echo("bw_metric answer 44 1"), aliases: ["echo"] })).status).toBe(200);
    expect((await send("viewer", "get", "/benchmarks/echo")).body).toMatchObject({ id: "team-echo", aliases: ["echo"] });
  });
});
