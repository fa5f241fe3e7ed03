import { writeFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// The Benchmarking Suite took a stored configuration's only service type when Form A named
// none (`"service": null`, or no service at all).
describe("Form A without a service type", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    fx = await openFixture();
    // The ancestor's INI form, with two service types.
    writeFileSync(
      join(fx.configDir, "providers", "two.conf"),
      "[provider]\nclass = local\n\n[small]\nallow_install = false\n\n[large]\nallow_install = false\n",
    );
    api = request(fx.app);
  });
  afterAll(async () => {
    await fx?.close();
  });

  it.each([
    ["without a service", { provider: "local" }],
    ["with a null service", { provider: "local", service: null }],
  ])("uses the configuration's only service type %s", async (_name, body) => {
    const res = await api.post("/api/v1/sessions/").send(body);
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expect(res.body.provider).toMatchObject({ id: "local", type: "default", class: "local" });
    // A real session: an execution in it runs.
    const exec = (await api.post(`/api/v1/sessions/${res.body.id}/executions/`).send({ tool: "idle", workload: "idle0" })).body.id;
    await api.post(`/api/v1/executions/${exec}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${exec}/run`).expect(200);
  });

  it.each([
    ["without a service", { provider: "two" }],
    ["with a null service", { provider: "two", service: null }],
  ])("answers 400 listing the service types when there are several, %s", async (_name, body) => {
    const before = (await api.get("/api/v1/sessions/").expect(200)).body.length;
    const res = await api.post("/api/v1/sessions/").send(body).expect(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "unknown_service_type", choices: ["small", "large"] });
    expect(res.body.detail).toMatch(/2 service types/);
    expect((await api.get("/api/v1/sessions/").expect(200)).body.length).toBe(before);
  });

  it("still refuses a service type the configuration does not have, and an empty one", async () => {
    expect((await api.post("/api/v1/sessions/").send({ provider: "two", service: "medium" }).expect(400)).body).toMatchObject({
      code: "unknown_service_type",
      choices: ["small", "large"],
    });
    expect((await api.post("/api/v1/sessions/").send({ provider: "two", service: "" }).expect(400)).body.code).toBe("validation_failed");
  });

  // A name is looked up among the configuration's own entries, never its object's inherited members.
  const INHERITED = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

  it.each(INHERITED)("refuses the inherited name %s as a service type, provider or class, and changes nothing", async (name) => {
    const before = await storeSnapshot(fx.engine);
    for (const [body, code] of [
      [{ provider: "local", service: name }, "unknown_service_type"],
      [{ provider: "two", "service-type": name }, "unknown_service_type"],
      [{ provider: name, service: "default" }, "unknown_provider"],
      [{ config: { provider: { class: name }, default: {} } }, "unknown_provider_class"],
    ] as const) {
      const res = await api.post("/api/v1/sessions/").send(body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, code]);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("takes the service type in the ancestor REST server's spelling, service-type", async () => {
    const res = await api.post("/api/v1/sessions/").send({ provider: "two", "service-type": "large" }).expect(200);
    expect(res.body.provider).toMatchObject({ id: "two", type: "large" });
    expect((await api.post("/api/v1/sessions/").send({ provider: "two", service: "large", "service-type": "large" }).expect(200)).body.provider.type).toBe(
      "large",
    );
  });

  it("refuses service and service-type that differ, and changes nothing", async () => {
    const before = (await api.get("/api/v1/sessions/").expect(200)).body.length;
    const res = await api.post("/api/v1/sessions/").send({ provider: "two", service: "small", "service-type": "large" }).expect(400);
    expect(res.body).toMatchObject({ code: "validation_failed", message: expect.stringMatching(/service-type/) });
    expect((await api.get("/api/v1/sessions/").expect(200)).body.length).toBe(before);
  });
});
