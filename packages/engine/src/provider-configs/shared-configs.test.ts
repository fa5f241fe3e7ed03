import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestSchema, startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../engine.js";
import { SecretBox } from "../secrets/secret-box.js";
import { storeSnapshot } from "../test-access.js";

// Issue 38 point 1: a configuration written through one server is every process's at once, on
// PostgreSQL: a server that runs no steps, another, and a worker; its key never in a table in clear.
describe("provider configurations shared through the database", () => {
  let sshd: SshdHarness;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let dataDir: string;
  let one: Engine;
  let other: Engine;
  let worker: Engine;

  beforeAll(async () => {
    sshd = await startSshd();
    schema = await createTestSchema();
    dataDir = mkdtempSync(join(tmpdir(), "bw-shared-configs-"));
    mkdirSync(join(dataDir, "config", "benchmarks"), { recursive: true });
    const secrets = new SecretBox(randomBytes(32));
    const options = { dataDir, configDir: join(dataDir, "config"), databaseUrl: schema.url, secrets };
    one = await Engine.open({ ...options, work: false });
    other = await Engine.open({ ...options, work: false });
    worker = await Engine.open({ ...options });
  }, 60_000);

  afterAll(async () => {
    await one?.close();
    await other?.close();
    await worker?.close();
    await schema?.drop();
    await sshd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const lab = () => ({
    provider: { class: "existing-vm" },
    vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
  });

  it("refuses a bad one with every problem, changing no table", async () => {
    const before = await storeSnapshot(one);
    await expect(one.putProvider("lab", { provider: { class: "existing-vm" }, vms: { port: 0 }, x: 1 })).rejects.toMatchObject({
      code: "invalid_configuration",
      extras: { errors: expect.arrayContaining([expect.objectContaining({ path: "/body/x" }), expect.objectContaining({ path: "/body/vms/port" })]) },
    });
    expect(await storeSnapshot(one)).toBe(before);
  });

  it("is listed by the other server at once, and a session on it runs on the worker", async () => {
    const { created } = await one.putProvider("lab", lab(), "alice");
    expect(created).toBe(true);
    expect(await other.listProviders()).toContainEqual(expect.objectContaining({ name: "lab", source: "api", version: 1 }));
    const session = await other.createSession({ provider: "lab", service: "vms" });
    const exec = await other.createExecution(session.id, { tool: "idle", workload: "idle0" });
    await other.prepare(exec.id);
    await other.run(exec.id);
    expect((await one.getExecution(exec.id)).state).toBe("completed");
    // Neither server runs steps (work: false): the worker ran both, over the configuration it read from the database.
    const tables = await storeSnapshot(one);
    for (const line of sshd.privateKey.split("\n").filter((l) => l.length >= 16 && !l.startsWith("-----"))) expect(tables).not.toContain(line);
    expect(tables).toContain("provider_configs");
    await other.deleteSession(session.id);
  }, 120_000);
});
