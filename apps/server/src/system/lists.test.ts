import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { parse } from "csv-parse/sync";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type BenchwrightClient } from "@benchwright/sdk";
import { METRIC_COLUMNS } from "../api/metrics-export.js";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// The lists' filters and pages, and the metrics export, through HTTP and the SDK, on records
// made by real steps on the local provider. The engine's own test (list-where.test.ts) checks
// every filter against a filter in memory on both databases; this one checks what a client sees.
describe("filters, pages and the metrics export", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let server: Server;
  let sdk: BenchwrightClient;
  /** Session ids, in creation order: a and b on provider config `alpha`, c on `beta`. */
  const sessions: Record<"a" | "b" | "c", string> = { a: "", b: "", c: "" };
  /** Execution ids by name, in creation order. */
  const ex: Record<string, string> = {};
  const order: string[] = [];

  async function session(name: string): Promise<string> {
    return (
      await api
        .post("/api/v1/sessions/")
        .send({ config: { provider: { class: "local", name }, default: {} } })
        .expect(200)
    ).body.id;
  }
  async function execution(key: string, sessionId: string, tool: string, workload: string, steps: Array<"prepare" | "run">): Promise<void> {
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload }).expect(200)).body.id;
    for (const step of steps) await api.post(`/api/v1/executions/${id}/${step}`);
    ex[key] = id;
    order.push(id);
  }

  beforeAll(async () => {
    fx = await openFixture();
    // Two figures a run, one of them with a comma and a formula-looking text in its tags.
    dropDefinition(fx.configDir, { id: "pair", workload: "two", run: "echo 'BW_METRIC first 1.5 ms'\necho 'BW_METRIC second 42 ops/s'" });
    api = request(fx.app);
    server = fx.app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    sdk = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });

    sessions.a = await session("alpha");
    sessions.b = await session("alpha");
    sessions.c = await session("beta");
    await execution("a_idle_done", sessions.a, "idle", "idle0", ["prepare", "run"]);
    await execution("a_pair_done", sessions.a, "pair", "two", ["prepare", "run", "run"]);
    await execution("b_fail", sessions.b, "idle", "failing", ["prepare", "run"]);
    await execution("b_created", sessions.b, "idle", "idle0", []);
    await execution("c_testing", sessions.c, "testing", "idle0", ["prepare", "run"]);
    await execution("c_prepared", sessions.c, "idle", "idle0", ["prepare"]);
  }, 120_000);
  afterAll(async () => {
    server?.close();
    await fx?.close();
  });

  const ids = (body: Array<{ id: string }>) => body.map((r) => r.id);

  it("answers a list without query parameters exactly as before: every record, a plain array, no page headers", async () => {
    const all = await api.get("/api/v1/executions/").expect(200);
    expect(ids(all.body)).toEqual(order);
    expect(all.headers.link).toBeUndefined();
    expect(all.headers["x-next-cursor"]).toBeUndefined();
    const live = await api.get("/api/v1/sessions/").expect(200);
    expect(ids(live.body)).toEqual([sessions.a, sessions.b, sessions.c]);
    // Each session holds all its executions, whatever the filters of the sessions list.
    expect(live.body[0].executions.map((e: { id: string }) => e.id)).toEqual([ex.a_idle_done, ex.a_pair_done]);
  });

  it("keeps exactly the records that match every filter", async () => {
    const cases: Array<[string, string[]]> = [
      ["tool=idle", [ex.a_idle_done, ex.b_fail, ex.b_created, ex.c_testing, ex.c_prepared]],
      // `testing` is a name of `idle`: it finds what either name created.
      ["tool=testing&workload=idle0", [ex.a_idle_done, ex.b_created, ex.c_testing, ex.c_prepared]],
      ["state=completed,run_failed", [ex.a_idle_done, ex.a_pair_done, ex.b_fail, ex.c_testing]],
      ["provider=beta", [ex.c_testing, ex.c_prepared]],
      [`session_id=${sessions.b}&state=created`, [ex.b_created]],
      ["provider=alpha&tool=pair", [ex.a_pair_done]],
      ["created_since=2999-01-01", []],
      ["created_since=2000-01-01T00:00:00Z&workload=failing", [ex.b_fail]],
    ];
    for (const [query, expected] of cases) {
      const res = await api.get(`/api/v1/executions/?${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(ids(res.body), query).toEqual(expected);
    }
    expect(ids((await api.get(`/api/v1/sessions/${sessions.b}/executions/?state=run_failed`).expect(200)).body)).toEqual([ex.b_fail]);
    expect(ids((await api.get("/api/v1/sessions/?provider=alpha").expect(200)).body)).toEqual([sessions.a, sessions.b]);
  });

  it("cuts a list into pages that together are the whole list, each record once, and names the next page", async () => {
    const seen: string[] = [];
    let url: string | undefined = "/api/v1/executions/?tool=idle&limit=2";
    let pages = 0;
    while (url) {
      const res = await api.get(url).expect(200);
      pages++;
      expect(res.body.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res.body));
      const link = res.headers.link as string | undefined;
      if (link) {
        expect(link).toMatch(/^<\/api\/v1\/executions\/\?.*cursor=[A-Za-z0-9_-]+.*>; rel="next"$/);
        expect(link).toContain(`cursor=${res.headers["x-next-cursor"]}`);
        // The next page keeps this page's filters.
        expect(link).toContain("tool=idle");
      }
      url = link?.slice(1, link.indexOf(">"));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([ex.a_idle_done, ex.b_fail, ex.b_created, ex.c_testing, ex.c_prepared]);

    const first = await api.get("/api/v1/sessions/?limit=1").expect(200);
    expect(ids(first.body)).toEqual([sessions.a]);
    const second = await api.get(`/api/v1/sessions/?limit=5&cursor=${first.headers["x-next-cursor"]}`).expect(200);
    expect(ids(second.body)).toEqual([sessions.b, sessions.c]);
    expect(second.headers["x-next-cursor"]).toBeUndefined();
  });

  it("refuses a bad limit, a forged cursor, a cursor of the other list and a date that is none, as problems", async () => {
    const sessionCursor = (await api.get("/api/v1/sessions/?limit=1").expect(200)).headers["x-next-cursor"];
    const before = await storeSnapshot(fx.engine);
    for (const query of [
      "limit=0",
      "limit=1001",
      "limit=two",
      "cursor=bm90LWEtY3Vyc29y",
      `cursor=${sessionCursor}`,
      "created_since=2026-02-30",
      "created_since=yesterday",
      "state=finished",
    ]) {
      const res = await api.get(`/api/v1/executions/?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers["content-type"], query).toMatch(/^application\/problem\+json/);
    }
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("exports one CSV row per figure of every successful run attempt, with the columns a spreadsheet needs", async () => {
    const res = await api.get(`/api/v1/executions/metrics?format=csv&provider=alpha`).expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    const rows = parse(res.text, { columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0])).toEqual([...METRIC_COLUMNS]);
    // idle0 once (idle_seconds), pair twice (first, second): the failed run has no figures.
    expect(rows.map((r) => [r.execution_id, r.attempt, r.metric])).toEqual([
      [ex.a_idle_done, "1", "idle_seconds"],
      [ex.a_pair_done, "1", "first"],
      [ex.a_pair_done, "1", "second"],
      [ex.a_pair_done, "2", "first"],
      [ex.a_pair_done, "2", "second"],
    ]);
    const second = rows.find((r) => r.metric === "second")!;
    expect(second).toMatchObject({
      session_id: sessions.a,
      provider: "alpha",
      service_type: "default",
      tool: "pair",
      workload: "two",
      value: "42",
      unit: "ops/s",
      repetition: "1",
    });
    expect(JSON.parse(second.parameters)).toEqual({});
    expect(second.machine).not.toBe("");
  });

  it("exports the same figures as JSON Lines, and through the SDK as rows and as text", async () => {
    const res = await api.get(`/api/v1/executions/metrics?format=jsonl&session_id=${sessions.c}`).expect(200);
    expect(res.headers["content-type"]).toMatch(/^application\/x-ndjson/);
    const lines = res.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.execution_id, l.tool, l.metric])).toEqual([[ex.c_testing, "idle", "idle_seconds"]]);

    const rows = [];
    for await (const row of sdk.metricRows({ provider: "alpha", tool: "pair" })) rows.push(row);
    expect(rows.map((r) => `${r.attempt}:${r.metric}=${r.value}`)).toEqual(["1:first=1.5", "1:second=42", "2:first=1.5", "2:second=42"]);
    const csv = await sdk.exportMetrics({ format: "csv", state: ["completed"], workload: "idle0" });
    expect((parse(csv, { columns: true }) as Array<Record<string, string>>).map((r) => r.execution_id)).toEqual([ex.a_idle_done, ex.c_testing]);
    // As a stream of bytes: the same text.
    const stream = await sdk.exportMetricsStream({ format: "csv", state: ["completed"], workload: "idle0" });
    expect(await new Response(stream).text()).toBe(csv);
    // An error answer throws before any byte.
    await expect(sdk.exportMetricsStream({ format: "csv", state: ["nonsense" as "completed"] })).rejects.toMatchObject({ status: 400 });
  });

  it("gives the SDK's lists the same filters, and its iterators every page", async () => {
    expect((await sdk.listExecutions({ tool: "idle", state: ["run_failed"] })).map((e) => e.id)).toEqual([ex.b_fail]);
    const page = await sdk.listExecutionsPage({ limit: 4 });
    expect(page.items.map((e) => e.id)).toEqual(order.slice(0, 4));
    expect(page.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const all: string[] = [];
    for await (const e of sdk.executions({ pageSize: 1 })) all.push(e.id);
    expect(all).toEqual(order);
    const live: string[] = [];
    for await (const s of sdk.sessions({ pageSize: 2, provider: "alpha" })) live.push(s.id);
    expect(live).toEqual([sessions.a, sessions.b]);
  });

  // Last: the session it deletes would otherwise change what the lists above hold.
  it("answers a deleted session 410 Gone, keeps its record in the list when its state is asked for, and its executions readable", async () => {
    const doomed = await session("gamma");
    await execution("d_done", doomed, "idle", "idle0", ["prepare", "run"]);
    const before = (await api.get(`/api/v1/sessions/${doomed}`).expect(200)).body;
    expect(before.deleted).toBeUndefined();
    await api.delete(`/api/v1/sessions/${doomed}`).expect(204);

    // Gone, as the Benchmarking Suite answered an error for it: a problem that says when.
    const gone = await api
      .get(`/api/v1/sessions/${doomed}`)
      .expect(410)
      .expect("content-type", /application\/problem\+json/);
    expect(gone.body).toMatchObject({ status: 410, code: "session_gone", title: "Session deleted" });
    expect(gone.body.detail).toContain(doomed);
    expect(gone.body.deleted).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await expect(sdk.getSession(doomed)).rejects.toMatchObject({ status: 410, code: "session_gone" });

    // Its record, from the list that asks for deleted ones.
    const [record] = (await api.get("/api/v1/sessions/?state=deleted").expect(200)).body;
    expect(record).toMatchObject({ id: doomed, state: "deleted", provider: { id: "gamma" }, created: before.created, deleted: gone.body.deleted });
    expect(record.deleted).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(record.deleted >= record.created).toBe(true);
    expect(record.executions.map((e: { id: string; state: string }) => [e.id, e.state])).toEqual([[ex.d_done, "completed"]]);
    expect(ids((await api.get(`/api/v1/sessions/${doomed}/executions/`).expect(200)).body)).toEqual([ex.d_done]);

    // The live ones by default, as the Benchmarking Suite's clients expect.
    expect(ids((await api.get("/api/v1/sessions/").expect(200)).body)).toEqual([sessions.a, sessions.b, sessions.c]);
    expect(ids((await api.get("/api/v1/sessions/?state=active,deleting").expect(200)).body)).toEqual([sessions.a, sessions.b, sessions.c]);
    expect(ids((await api.get("/api/v1/sessions/?state=deleted").expect(200)).body)).toEqual([doomed]);
    expect(ids((await api.get("/api/v1/sessions/?state=active,deleting,deleted").expect(200)).body)).toEqual([sessions.a, sessions.b, sessions.c, doomed]);
    expect(ids((await api.get("/api/v1/sessions/?state=deleted&provider=alpha").expect(200)).body)).toEqual([]);
    expect((await api.get("/api/v1/sessions/?state=gone").expect(400)).body.code).toBe("validation_failed");
    expect((await sdk.listSessions({ state: ["deleted"] })).map((s) => [s.id, s.state])).toEqual([[doomed, "deleted"]]);
    const all: string[] = [];
    for await (const s of sdk.sessions({ pageSize: 1, state: ["active", "deleting", "deleted"] })) all.push(s.id);
    expect(all).toEqual([sessions.a, sessions.b, sessions.c, doomed]);

    // What would change it answers as it did: nothing to create, prepare, run or delete.
    const unchanged = await storeSnapshot(fx.engine);
    expect((await api.post(`/api/v1/sessions/${doomed}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(404)).body.code).toBe("not_found");
    expect((await api.post(`/api/v1/executions/${ex.d_done}/prepare`).expect(409)).body.code).toBe("session_deleted");
    expect((await api.post(`/api/v1/executions/${ex.d_done}/run`).expect(409)).body.code).toBe("session_deleted");
    expect((await api.delete(`/api/v1/sessions/${doomed}`).expect(404)).body.code).toBe("not_found");
    expect(await storeSnapshot(fx.engine)).toBe(unchanged);
  });
});
