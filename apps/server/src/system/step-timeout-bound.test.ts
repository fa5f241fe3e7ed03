import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// Issue 27: a session's step_timeout had no maximum (a step could hold a machine for years).
// The operator bounds it (BENCHWRIGHT_MAX_STEP_TIMEOUT, 24 h by default); above it, 400.
const local = (stepTimeout: number) => ({ config: { provider: { class: "local", name: "mine" }, bench: { step_timeout: stepTimeout } } });

async function expectRefused(fx: Fixture, body: object, max: number) {
  const before = await storeSnapshot(fx.engine);
  const res = await request(fx.app).post("/api/v1/sessions/").send(body);
  expect(res.status, res.text).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    code: "invalid_configuration",
    status: 400,
    errors: [{ path: "/body/config/bench/step_timeout", message: expect.stringContaining(`at most ${max}`) }],
  });
  expect(res.body.detail).toContain("bench.step_timeout");
  expect(await storeSnapshot(fx.engine)).toEqual(before);
}

describe("the bound of a session's step_timeout", () => {
  let fx: Fixture;
  let bounded: Fixture;

  beforeAll(async () => {
    fx = await openFixture();
    bounded = await openFixture({ engine: { maxStepTimeoutS: 600 } });
  });
  afterAll(async () => {
    await fx?.close();
    await bounded?.close();
  });

  it("is 24 h by default: above it, 400 invalid_configuration naming the field, nothing stored", async () => {
    await expectRefused(fx, local(86_401), 86_400);
    await expectRefused(fx, local(1e12), 86_400);
    expect((await request(fx.app).post("/api/v1/sessions/").send(local(86_400))).status).toBe(200);
  });

  it("is the operator's where set", async () => {
    await expectRefused(bounded, local(601), 600);
    expect((await request(bounded.app).post("/api/v1/sessions/").send(local(600))).status).toBe(200);
  });
});
