import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n";

// Form B comes from whoever can call the API: it may describe the client's machines, never
// make the server read its own files or change its own system. Stored configurations may.
describe("an inline configuration cannot reach into the server", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  // A key file the server owns, as an operator's key would be (written before the tests).
  const serverKey = join(mkdtempSync(join(tmpdir(), "bw-key-")), "id_ed25519");

  beforeAll(async () => {
    fx = await openFixture();
    api = request(fx.app);
    writeFileSync(serverKey, KEY, { mode: 0o600 });
  });
  afterAll(() => fx.close());

  const attempts = [
    {
      name: "the server's key file as the service's key_path",
      config: {
        provider: { class: "existing-vm", name: "mine" },
        vms: { host: "127.0.0.1", port: 22, vm_user: "root", key_path: serverKey },
      },
      field: "vms.key_path",
      path: "/body/config/vms/key_path",
    },
    {
      name: "the server's key file as one host's key_path",
      config: {
        provider: { class: "existing-vm" },
        vms: { vm_user: "root", ssh_private_key: KEY, hosts: [{ host: "10.0.0.1" }, { host: "127.0.0.1", key_path: serverKey }] },
      },
      field: "vms.hosts[1].key_path",
      path: "/body/config/vms/hosts/1/key_path",
    },
    {
      name: "allow_install on the server itself (local)",
      config: { provider: { class: "local", name: "mine" }, bench: { allow_install: true } },
      field: "bench.allow_install",
      path: "/body/config/bench/allow_install",
    },
    {
      name: "allow_install on local next to a platform",
      config: { provider: { class: "local" }, root: { platform: "debian_12", allow_install: true } },
      field: "root.allow_install",
      path: "/body/config/root/allow_install",
    },
  ];

  it.each(attempts.map((a) => [a.name, a] as const))("refuses %s: 400 invalid_configuration naming the field, store unchanged", async (_name, attempt) => {
    const before = await storeSnapshot(fx.engine);
    const res = await api.post("/api/v1/sessions/").send({ config: attempt.config });
    expect(res.status, res.text).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "invalid_configuration", status: 400 });
    expect(res.body.detail).toContain(attempt.field);
    expect(res.body.detail).toMatch(/reach into the server/);
    expect(res.body.errors).toContainEqual({ path: attempt.path, message: expect.any(String) });
    // The answer says which field, never what the client put in it.
    expect(res.text).not.toContain(serverKey);
    expect(res.text).not.toContain("b3BlbnNzaC1rZXktdjEAAAAA");
    expect(await storeSnapshot(fx.engine)).toBe(before);
    const sessions = await api.get("/api/v1/sessions/").expect(200);
    expect(sessions.body).toEqual([]);
  });

  it("still accepts what stays on the client's machines", async () => {
    await api
      .post("/api/v1/sessions/")
      .send({ config: { provider: { class: "local" }, bench: { allow_install: false } } })
      .expect(200);
    await api
      .post("/api/v1/sessions/")
      .send({
        config: { provider: { class: "existing-vm" }, vms: { host: "10.0.0.1", vm_user: "u", ssh_private_key: KEY, allow_install: true } },
      })
      .expect(200);
  });

  it("leaves a stored configuration free to point at a key file on the server", async () => {
    writeFileSync(
      join(fx.configDir, "providers", "lab.yaml"),
      `provider:\n  class: existing-vm\nvms:\n  host: 10.0.0.1\n  vm_user: u\n  key_path: ${serverKey}\n`,
    );
    const res = await api.post("/api/v1/sessions/").send({ provider: "lab", service: "vms" }).expect(200);
    expect(res.body.provider).toEqual({ id: "lab", type: "vms", class: "existing-vm" });
  });
});
