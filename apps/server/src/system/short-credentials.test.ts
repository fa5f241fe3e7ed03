import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// Issue 27: a credential shorter than the scrubber masks (4 characters) would be shown as is
// wherever a step or a service prints it. It is refused when the session is made.
describe("a session whose credentials are too short to mask", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    fx = await openFixture();
    api = request(fx.app);
  });
  afterAll(() => fx.close());

  it.each([
    {
      name: "a password of 3 characters",
      config: { provider: { class: "existing-vm", name: "lab" }, vms: { host: "127.0.0.1", vm_user: "bw", password: "p4s" } },
      paths: ["/body/config/vms/password"],
    },
    {
      name: "a host's password of 1 character, beside a good one",
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: {
          vm_user: "bw",
          hosts: [
            { host: "10.0.0.1", password: "long enough" },
            { host: "10.0.0.2", password: "x" },
          ],
        },
      },
      paths: ["/body/config/vms/hosts/1/password"],
    },
  ])("refuses $name: 400 invalid_configuration naming the field, never the value, store unchanged", async ({ config, paths }) => {
    const before = await storeSnapshot(fx.engine);
    const res = await api.post("/api/v1/sessions/").send({ config });
    expect(res.status, res.text).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "invalid_configuration", status: 400 });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect(res.body.errors[0].message).toMatch(/at least 4 characters/);
    expect(res.text).not.toMatch(/p4s|"x"/);
    expect(await storeSnapshot(fx.engine)).toEqual(before);
  });

  it("accepts a password of 4 characters", async () => {
    const res = await api
      .post("/api/v1/sessions/")
      .send({ config: { provider: { class: "existing-vm", name: "lab" }, vms: { host: "127.0.0.1", vm_user: "bw", password: "p4s5" } } });
    expect(res.status, res.text).toBe(200);
    await api.delete(`/api/v1/sessions/${res.body.id}`);
  });
});
