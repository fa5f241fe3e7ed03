import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serversOnPostgres, type BenchwrightProcess } from "../test-support/processes.js";

// A principal's quotas (live sessions, steps under way) hold across two servers, each a process
// of its own, on one real PostgreSQL: at its quota, one more is a 429 on either server.

describe("quotas across two servers on one PostgreSQL", () => {
  let servers: BenchwrightProcess[] = [];
  let close = async () => {};

  beforeAll(async () => {
    ({ servers, close } = await serversOnPostgres(2, { BENCHWRIGHT_QUOTA_SESSIONS: "2", BENCHWRIGHT_QUOTA_STEPS: "1" }));
  }, 60_000);
  afterAll(() => close(), 60_000);

  const call = async (i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(servers[i]!.api + path, {
      method,
      headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: text ? JSON.parse(text) : undefined };
  };
  const local = { provider: "local", service: "default" };
  const sessionCount = async () => ((await call(0, "GET", "/sessions/")).body as unknown[]).length;

  it("refuses a third live session on either server with 429 quota_exceeded, and takes one once a session is deleted", async () => {
    // Four at once over both servers: two get a place, whatever the order.
    const first = await Promise.all([0, 1, 0, 1].map((i) => call(i, "POST", "/sessions/", local)));
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    const made = first.filter((r) => r.status === 200).map((r) => r.body.id as string);
    for (const server of [0, 1]) {
      const refused = await call(server, "POST", "/sessions/", local);
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(refused.body).toMatchObject({ status: 429, code: "quota_exceeded", retry_after: Number(refused.retryAfter) });
    }
    // The refusals made nothing.
    expect(await sessionCount()).toBe(2);
    expect((await call(1, "DELETE", `/sessions/${made[0]}`)).status).toBe(204);
    expect((await call(0, "POST", "/sessions/", local)).status).toBe(200);
    expect((await call(1, "POST", "/sessions/", local)).status).toBe(429);
  }, 60_000);

  it("refuses a second step under way on the other server with 429 quota_exceeded, and takes it once the first has ended", async () => {
    const sessions = (await call(0, "GET", "/sessions/")).body as Array<{ id: string }>;
    const exec = async (i: number, sid: string) => {
      const e = await call(i, "POST", `/sessions/${sid}/executions/`, { tool: "idle", workload: "idle5" });
      expect((await call(i, "POST", `/executions/${e.body.id}/prepare`)).status).toBe(200);
      return e.body.id as string;
    };
    const [a, b] = [await exec(0, sessions[0]!.id), await exec(1, sessions[1]!.id)];
    // A 5 s run on server 0, answered at once.
    expect((await call(0, "POST", `/executions/${a}/run`, undefined, { Prefer: "respond-async" })).status).toBe(202);
    const refused = await call(1, "POST", `/executions/${b}/run`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "quota_exceeded" });
    expect((await call(1, "GET", `/executions/${b}`)).body.state).toBe("prepared");
    for (let i = 0; i < 200 && (await call(0, "GET", `/executions/${a}`)).body.state === "running"; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await call(1, "POST", `/executions/${b}/run`)).status).toBe(200);
  }, 60_000);
});
