import type { AuditEntry } from "@benchwright/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serversOnPostgres, type BenchwrightProcess } from "../test-support/processes.js";

// Issue 28's acceptance 4: a principal's rate limit holds across two servers, each a process of
// its own, on one real PostgreSQL. Both take from the same token bucket in the database.

const RPS = 5;
const BURST = 5;

describe("the rate limit across two servers on one PostgreSQL", () => {
  let servers: BenchwrightProcess[] = [];
  let close = async () => {};

  beforeAll(async () => {
    ({ servers, close } = await serversOnPostgres(2, { BENCHWRIGHT_RATE_LIMIT_RPS: String(RPS), BENCHWRIGHT_RATE_LIMIT_BURST: String(BURST) }));
  }, 60_000);
  afterAll(() => close(), 60_000);

  const send = async (i: number, method = "GET", path = "/benchmarks/", requestId?: string) => {
    const res = await fetch(servers[i % 2]!.api + path, { method, headers: requestId ? { "X-Request-Id": requestId } : {} });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), type: res.headers.get("content-type"), text };
  };
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("accepts at most the burst and the rate's refill of a burst spread over both, and refuses the rest with 429 and Retry-After", async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(i)));
    const seconds = (Date.now() - started) / 1000;
    const accepted = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    console.log(`burst of 60 over two servers in ${seconds.toFixed(2)} s: ${accepted} accepted, ${refused.length} refused (limit ${RPS}/s, burst ${BURST})`);
    expect(accepted).toBeGreaterThanOrEqual(BURST);
    expect(accepted).toBeLessThanOrEqual(BURST + Math.ceil(RPS * seconds));
    expect(accepted + refused.length).toBe(60);
    for (const a of refused) {
      expect(a.type).toMatch(/^application\/problem\+json/);
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(a.text)).toMatchObject({ status: 429, code: "rate_limited", retry_after: Number(a.retryAfter) });
    }
    // Both servers refused some: neither counted on its own.
    expect(new Set(answers.map((a, i) => (a.status === 429 ? i % 2 : -1)))).toEqual(new Set([-1, 0, 1]));
  }, 30_000);

  it("holds about the rate over seconds of steady requests to both, and lets one through after Retry-After", async () => {
    await pause(1_500);
    // 20 requests a second for 3 s, alternating servers: four times the limit.
    const started = Date.now();
    const answers: Array<Awaited<ReturnType<typeof send>>> = [];
    const pending: Array<Promise<void>> = [];
    for (let i = 0; Date.now() - started < 3_000; i++) {
      pending.push(send(i).then((a) => void answers.push(a)));
      await pause(50);
    }
    await Promise.all(pending);
    const seconds = (Date.now() - started) / 1000;
    const accepted = answers.filter((a) => a.status === 200).length;
    console.log(
      `steady ${answers.length} requests over ${seconds.toFixed(2)} s: ${accepted} accepted (${(accepted / seconds).toFixed(1)}/s; limit ${RPS}/s, burst ${BURST})`,
    );
    expect(accepted).toBeLessThanOrEqual(BURST + Math.ceil(RPS * seconds));
    // The limit is a limit, not a stop: about the rate still gets through.
    expect(accepted).toBeGreaterThanOrEqual(Math.floor(RPS * (seconds - 1)));
    const last = [...answers].reverse().find((a) => a.status === 429)!;
    await pause(Number(last.retryAfter) * 1000);
    expect((await send(1)).status).toBe(200);
  }, 30_000);

  it("records a write refused by the limit in the audit log, read from either server", async () => {
    await pause(1_500);
    const ids = Array.from({ length: 12 }, (_, i) => `rate-${Date.now()}-${i}`);
    // Deletes of no session: with tokens left, a 404; without, a 429. Both change nothing.
    const answers = await Promise.all(ids.map((id, i) => send(i, "DELETE", "/sessions/3f1c6f1e-8a0e-4f7e-9a51-6f0d2b7c9a11", id)));
    expect(answers.some((a) => a.status === 429)).toBe(true);
    await pause(2_000);
    for (const server of [0, 1]) {
      const res = await send(server, "GET", "/admin/audit?operation=deleteSession&limit=100");
      expect(res.status, res.text).toBe(200);
      const entries = (JSON.parse(res.text) as AuditEntry[]).filter((e) => ids.includes(e.request_id));
      expect(entries).toHaveLength(ids.length);
      for (const [i, id] of ids.entries()) {
        const entry = entries.find((e) => e.request_id === id)!;
        expect(entry.status).toBe(answers[i]!.status);
        expect(entry.code).toBe(answers[i]!.status === 429 ? "rate_limited" : "not_found");
      }
    }
  }, 30_000);
});
