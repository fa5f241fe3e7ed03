import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

const BOOT = "boot-token-for-provider-configs-test";
const BASE = "/api/v1";

// Issue 38 point 1: provider configurations written through the API, on a private sshd.
describe("provider configurations through the API", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  const tokens: Record<string, string> = {};
  /** Every answer the server sent, to look for the key in. */
  const seen: string[] = [];
  const send = async (role: string, method: "get" | "put" | "post" | "delete", path: string, body?: object) => {
    let req = api[method](`${BASE}${path}`).set("Authorization", `Bearer ${tokens[role]}`);
    if (body !== undefined) req = req.send(body);
    const res = await req;
    seen.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
    return res;
  };
  /** The key's lines long enough to be recognised anywhere (its armour lines are not secret). */
  const keyLines = () =>
    sshd.privateKey
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.length >= 16 && !l.startsWith("-----"));
  const lab = () => ({
    provider: { class: "existing-vm" },
    vms: { hosts: [{ host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey }] },
  });

  beforeAll(async () => {
    sshd = await startSshd();
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
    await sshd?.stop();
  }, 60_000);

  it("refuses a viewer's and an operator's writes (403), storing nothing", async () => {
    const before = await storeSnapshot(fx.engine);
    for (const role of ["viewer", "operator"]) {
      expect((await send(role, "put", "/providers/lab", lab())).status).toBe(403);
      expect((await send(role, "delete", "/providers/local")).status).toBe(403);
    }
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("answers a bad configuration with one 400 listing every problem, storing nothing", async () => {
    const before = await storeSnapshot(fx.engine);
    const res = await send("admin", "put", "/providers/broken", {
      provider: { class: "cloud", driver: "ec2", access_id: "AKIAEXAMPLE1" },
      big: { image: "ami-1", size: "t3.small", vm_user: "admin", step_timeout: 0 },
      vms: "not a section",
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("invalid_configuration");
    const paths = (res.body.errors as Array<{ path: string }>).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["/body/provider/secret_key", "/body/provider/region", "/body/big/step_timeout", "/body/vms"]));
    expect(res.text).not.toContain("AKIAEXAMPLE1");
    expect(await storeSnapshot(fx.engine)).toBe(before);
    expect((await send("viewer", "get", "/providers/broken")).status).toBe(404);
  });

  it("keeps the files and the built-in read-only (409)", async () => {
    const res = await send("admin", "put", "/providers/local", { provider: { class: "local" }, default: {} });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("read_only");
    expect((await send("admin", "delete", "/providers/local")).body.code).toBe("read_only");
    const local = (await send("viewer", "get", "/providers/local")).body;
    expect(local).toMatchObject({ name: "local", source: "file", read_only: true, version: 1 });
  });

  it("stores one with an SSH key sealed, never shows the key, and runs a benchmark on it", async () => {
    const created = await send("admin", "put", "/providers/lab", lab());
    expect(created.status, created.text).toBe(201);
    expect(created.headers.location).toBe(`${BASE}/providers/lab`);
    expect(created.body).toMatchObject({ name: "lab", class: "existing-vm", source: "api", read_only: false, version: 1, updated_by: "bootstrap" });
    expect(created.body.secrets_set).toEqual(["/vms/hosts/0/ssh_private_key"]);
    expect(created.body.config.vms.hosts[0]).toMatchObject({ host: sshd.host, ssh_private_key: "***" });
    const listed = (await send("viewer", "get", "/providers/")).body as Array<{ name: string; source: string; version: number }>;
    expect(listed).toContainEqual(expect.objectContaining({ name: "lab", source: "api", version: 1, service_types: ["vms"] }));
    expect((await send("viewer", "get", "/providers/lab")).body).toEqual(created.body);

    const session = await send("operator", "post", "/sessions/", { provider: "lab", service: "vms" });
    expect(session.status, session.text).toBe(200);
    const exec = await send("operator", "post", `/sessions/${session.body.id}/executions/`, { tool: "idle", workload: "idle0" });
    expect((await send("operator", "post", `/executions/${exec.body.id}/prepare`)).status).toBe(200);
    expect((await send("operator", "post", `/executions/${exec.body.id}/run`)).status).toBe(200);
    const ran = (await send("operator", "get", `/executions/${exec.body.id}`)).body;
    expect(ran.state).toBe("completed");
    expect(ran.exec_env.vms[0].ip).toBe(sshd.host);

    // A live session keeps the configuration's name: it is not deleted from under it.
    const refused = await send("admin", "delete", "/providers/lab");
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe("in_use");
    // Replaced while the session lives: the session keeps its own, sealed with it.
    const broken = { provider: { class: "existing-vm" }, vms: { hosts: [{ host: "192.0.2.1", vm_user: "nobody", ssh_private_key: sshd.privateKey }] } };
    const replaced = await send("admin", "put", "/providers/lab", broken);
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.version).toBe(2);
    const again = await send("operator", "post", `/sessions/${session.body.id}/executions/`, { tool: "idle", workload: "idle0" });
    expect((await send("operator", "post", `/executions/${again.body.id}/prepare`)).status).toBe(200);
    expect((await send("operator", "post", `/executions/${again.body.id}/run`)).status).toBe(200);
    expect((await send("operator", "get", `/executions/${again.body.id}`)).body.exec_env.vms[0].ip).toBe(sshd.host);
    expect((await send("operator", "delete", `/sessions/${session.body.id}`)).status).toBe(204);
    expect((await send("admin", "delete", "/providers/lab")).status).toBe(204);
    expect((await send("viewer", "get", "/providers/lab")).status).toBe(404);

    // Every write is in the audit log.
    const audit = (await send("admin", "get", "/admin/audit?operation=putProvider")).body as Array<{ operation: string; status: number }>;
    expect(audit.map((e) => e.status).sort()).toEqual(expect.arrayContaining([200, 201, 403, 403, 409]));
    // The key: in no answer, no log line and no table in clear.
    const tables = await storeSnapshot(fx.engine);
    for (const line of keyLines()) {
      for (const text of seen) expect(text).not.toContain(line);
      for (const text of fx.logs) expect(text).not.toContain(line);
      expect(tables).not.toContain(line);
    }
  }, 120_000);
});
