import { createHash } from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { createApp } from "../app.js";
import { FailedAuthLimit } from "./failed-auth-limit.js";

const hex = (token: string) => createHash("sha256").update(token).digest("hex");

describe("the limit on requests no token admits, by address", () => {
  it("refuses past the burst until the rate refills it, by the clock it is given", () => {
    let now = 0;
    const limit = new FailedAuthLimit({ rps: 2, burst: 3 }, () => now);
    for (let i = 0; i < 3; i++) limit.take("10.0.0.1", undefined);
    expect(() => limit.take("10.0.0.1", undefined)).toThrow(expect.objectContaining({ code: "rate_limited", extras: { retry_after: 1 } }));
    // Another address has its own.
    limit.take("10.0.0.2", hex("x"));
    now += 500;
    limit.take("10.0.0.1", undefined);
    expect(() => limit.take("10.0.0.1", undefined)).toThrow(expect.objectContaining({ code: "rate_limited" }));
  });

  it("counts only refusals: a place given back (a token admitted) is free again, and an admitted token passes an exhausted address", () => {
    const limit = new FailedAuthLimit({ rps: 1, burst: 2 }, () => 0);
    for (let i = 0; i < 10; i++) limit.take("10.0.0.1", hex("good"))();
    limit.admitted(hex("good"));
    limit.take("10.0.0.1", hex("bad1"));
    limit.take("10.0.0.1", hex("bad2"));
    expect(() => limit.take("10.0.0.1", hex("bad3"))).toThrow(expect.objectContaining({ code: "rate_limited" }));
    limit.take("10.0.0.1", hex("good"));
    // Once refused (revoked), it is a stranger again.
    limit.refused(hex("good"));
    expect(() => limit.take("10.0.0.1", hex("good"))).toThrow(expect.objectContaining({ code: "rate_limited" }));
  });
});

describe("a server with a token, flooded with bad tokens from one address", () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await openFixture();
  }, 60_000);
  afterAll(() => fx.close());

  it("answers 429 problem+json with Retry-After past the burst, without looking the tokens up, and still admits tokens in use there", async () => {
    const boot = "boot-token-for-failed-auth-test";
    // A refill too slow to matter however long the flood takes on a loaded machine (at 1 a second,
    // 150 requests over 12 s refilled 5 more places); the refill itself is the unit test's above.
    const app = createApp({ engine: fx.engine, token: boot, failedAuthRate: { rps: 0.001, burst: 20 } });
    const api = request(app);
    const made = (await fx.engine.createToken({ principal: "ci", role: "viewer" })).token!;
    // In use before the flood.
    await api.get("/api/v1/sessions/").set("Authorization", `Bearer ${made}`).expect(200);
    const lookups = vi.spyOn(fx.engine, "principalOfToken");
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        i % 3 === 0 ? api.get("/api/v1/sessions/") : api.get("/api/v1/sessions/").set("Authorization", `Bearer bw_guess${i}`),
      ),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(20);
    expect(refused).toHaveLength(130);
    for (const a of refused) {
      expect(a.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(Number(a.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(a.body).toMatchObject({ status: 429, code: "rate_limited", retry_after: Number(a.headers["retry-after"]) });
    }
    expect(lookups.mock.calls.length).toBeLessThanOrEqual(20);
    // The flood locks out neither the token in use nor the bootstrap one.
    await api.get("/api/v1/sessions/").set("Authorization", `Bearer ${made}`).expect(200);
    await api.get("/api/v1/sessions/").set("Authorization", `Bearer ${boot}`).expect(200);
    expect((await api.get("/api/v1/sessions/").set("Authorization", "Bearer bw_one-more")).status).toBe(429);
  });
});
