import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLoopbackSession, type LoopbackSession } from "../test-support/loopback.js";

// The Benchmarking Suite's later catalog calls the idle tool `testing` (its testing.conf:
// idle5, idle30, idle60, failing). Its clients ask for `testing`; they get idle.
describe("`testing`, the Benchmarking Suite's name of idle", () => {
  let loop: LoopbackSession;
  let api: LoopbackSession["api"];
  let sessionId: string;

  beforeAll(async () => {
    loop = await openLoopbackSession();
    ({ api, sessionId } = loop);
  }, 60_000);

  afterAll(async () => {
    await loop?.close();
  });

  it("is listed once, as an alias of idle, and answers at its own id", async () => {
    const list = (await api.get("/api/v1/benchmarks/").expect(200)).body as Array<{ id: string; aliases: string[] }>;
    expect(list.filter((b) => b.id === "testing")).toEqual([]);
    expect(list.find((b) => b.id === "idle")?.aliases).toEqual(["testing"]);
    expect(list.filter((b) => b.id !== "idle").every((b) => Array.isArray(b.aliases) && !b.aliases.includes("testing"))).toBe(true);
    const testing = (await api.get("/api/v1/benchmarks/testing").expect(200)).body;
    expect(testing).toEqual((await api.get("/api/v1/benchmarks/idle").expect(200)).body);
    expect(testing.workloads.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining(["idle5", "idle30", "idle60", "failing"]));
  });

  it("creates, prepares and runs an execution of testing/idle5 and testing/failing, recorded as idle", async () => {
    const created = await api
      .post(`/api/v1/sessions/${sessionId}/executions/`)
      .send({ tool: "testing", workload: "idle5", params: { seconds: 1 } })
      .expect(200);
    // The record says what ran: the tool's own id, so results compare across both names.
    expect(created.body.test).toMatchObject({ tool_id: "idle", workload_id: "idle5", tool_name: "Idle" });
    const id = created.body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${id}/run`).expect(200);
    const exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(exec.state).toBe("completed");
    const slept = exec.metrics.find((m: { name: string }) => m.name === "idle_seconds");
    expect(slept).toMatchObject({ unit: "s" });
    // It slept what it was asked to (one second: the name is the point here, not the five by default).
    expect(slept.value).toBeGreaterThanOrEqual(1);

    const failing = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "testing", workload: "failing" }).expect(200)).body.id;
    await api.post(`/api/v1/executions/${failing}/prepare`).expect(200);
    const failed = await api.post(`/api/v1/executions/${failing}/run`).expect(502);
    expect(failed.body).toMatchObject({ code: "step_failed", exit_code: 3 });
  }, 60_000);

  it("still says which tools exist when neither name fits", async () => {
    const res = await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "testin", workload: "idle5" }).expect(400);
    expect(res.body).toMatchObject({ code: "unknown_tool", choices: expect.arrayContaining(["idle"]) });
  });
});
