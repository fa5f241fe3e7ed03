import { randomUUID } from "node:crypto";
import { Client } from "ssh2";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BenchwrightError } from "../../errors.js";
import { startOpenStackDouble, type OpenStackDouble, type OpenStackOperation } from "../../testing/openstack-double.js";
import type { ResolvedConfig } from "../provider.js";
import { createCloudProvider, OPENSTACK_KINDS, validateCloudConfig, type CloudProviderOptions } from "./index.js";
import { startSshd, type SshdHarness } from "../../testing/sshd.js";
import { closedPort, createMemoryLedger, testContext, type MemoryLedger } from "./testing-ledger.js";

/** Logs in to the machine for real: the key it was handed is accepted (no command: only authentication matters here). */
function loginWorks(target: { host: string; port: number; username: string; privateKey: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = new Client();
    conn
      .on("ready", () => {
        conn.end();
        resolve("ok");
      })
      .on("error", reject)
      .connect({ host: target.host, port: target.port, username: target.username, privateKey: target.privateKey });
  });
}

const said: string[] = [];
const secrets = new Set<string>();

async function failure(promise: Promise<unknown>): Promise<BenchwrightError> {
  try {
    await promise;
  } catch (error) {
    said.push(String((error as Error).message), String((error as BenchwrightError).detail));
    expect(error).toBeInstanceOf(BenchwrightError);
    return error as BenchwrightError;
  }
  throw new Error("expected a failure");
}

const nothing = { servers: [], keyPairs: [], floatingIps: [] };

describe("openstack provider", () => {
  // A real private sshd stands in for the machines; the doubles hand out its address and key.
  let sshd: SshdHarness;
  let double: OpenStackDouble;
  let ledger: MemoryLedger;
  let logs: string[];
  let sessionId: string;
  let options: CloudProviderOptions;

  const config = (service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}): ResolvedConfig => ({
    name: "os-test",
    serviceType: "vm",
    providerClass: "cloud",
    provider: {
      class: "benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider",
      name: "os-test",
      driver: "openstack",
      auth_url: double.authUrl.replace(/\/v3$/, ""),
      auth_version: "3.x_password",
      access_id: double.username,
      secret_key: double.password,
      tenant: double.project,
      region: "RegionOne",
      ...provider,
    },
    service: { image: "debian-12", size: "m1.small", vm_user: sshd.username, platform: "debian_12", network: "private", security_group: "ssh", ...service },
  });

  beforeAll(async () => {
    sshd = await startSshd();
    secrets.add(sshd.privateKey);
  }, 30_000);
  afterAll(() => sshd.stop());

  beforeEach(async () => {
    double = await startOpenStackDouble({ sshHost: sshd.host, privateKey: sshd.privateKey, pollsUntilActive: 2 });
    secrets.add(double.username).add(double.password);
    ledger = createMemoryLedger();
    logs = [];
    sessionId = randomUUID();
    options = { sshPort: sshd.port, pollIntervalMs: 2, stateTimeoutMs: 2000, sshPollIntervalMs: 20, sshTimeoutMs: 2000 };
  });
  afterEach(async () => {
    said.push(...logs);
    for (const t of double.tokens()) secrets.add(t);
    for (const e of ledger.entries) if (typeof e.meta.private_key === "string") secrets.add(e.meta.private_key);
    await double.stop();
  });

  const ctx = (cfg = config()) => testContext(cfg, sessionId, logs, ledger);

  it("creates a key pair, a server and a floating IP, and hands over a machine that answers SSH", async () => {
    const provider = createCloudProvider(config(), options);
    const [m] = await provider.ensureMachines(ctx());
    const inv = double.inventory();
    expect(inv.servers).toHaveLength(1);
    expect(inv.servers[0].metadata).toEqual({ "benchwright:session": sessionId, "benchwright:managed": "true" });
    expect(inv.floatingIps).toHaveLength(1);
    expect(inv.floatingIps[0].portId).toBe(`port-${inv.servers[0].id}`);
    expect(m).toMatchObject({ id: inv.servers[0].id, ip: sshd.host, platform: "debian_12", workRoot: "~/.benchwright", allowInstall: true });
    expect(m.ssh).toMatchObject({ host: sshd.host, port: sshd.port, username: sshd.username });
    expect(await loginWorks(m.ssh!)).toBe("ok");
    expect(ledger.entries.map((e) => e.kind)).toEqual([OPENSTACK_KINDS.keyPair, OPENSTACK_KINDS.server, OPENSTACK_KINDS.floatingIp]);
    expect(ledger.entries[0].meta.private_key).toBe(m.ssh!.privateKey);
  });

  it("takes no floating IP when told not to", async () => {
    const cfg = config({ no_floating_ip: "true" });
    const [m] = await createCloudProvider(cfg, options).ensureMachines(ctx(cfg));
    expect(m.ip).toBe(sshd.host);
    expect(double.inventory().floatingIps).toEqual([]);
  });

  it("destroys everything it created, and destroying again is harmless", async () => {
    const provider = createCloudProvider(config(), options);
    await provider.ensureMachines(ctx());
    await provider.destroy(ctx());
    expect(double.inventory()).toEqual(nothing);
    expect(await ledger.live()).toEqual([]);
    await provider.destroy(ctx());
  });

  it("returns the same server when called twice, even with a new provider and expired tokens", async () => {
    const first = await createCloudProvider(config(), options).ensureMachines(ctx());
    double.revokeTokens();
    const second = await createCloudProvider(config(), options).ensureMachines(ctx());
    expect(second).toEqual(first);
    expect(double.inventory().servers).toHaveLength(1);
    expect(double.inventory().floatingIps).toHaveLength(1);
  });

  it("uses a configured key pair by name, with an image id and a network uuid", async () => {
    // Any key made at Nova will do as "the team's key".
    const seed = createCloudProvider(config(), options);
    const [seeded] = await seed.ensureMachines(ctx());
    const keyName = ledger.entries[0].id;
    await seed.destroy({ ...ctx(), resources: { ...ledger, live: async () => (await ledger.live()).filter((e) => e.kind !== OPENSTACK_KINDS.keyPair) } });
    const other = createMemoryLedger();
    const cfg = config({ key_name: keyName, ssh_private_key: seeded.ssh!.privateKey });
    const [m] = await createCloudProvider(cfg, options).ensureMachines(testContext(cfg, sessionId, logs, other));
    expect(m.ssh!.privateKey).toBe(seeded.ssh!.privateKey);
    expect(other.entries.map((e) => e.kind)).toEqual([OPENSTACK_KINDS.server, OPENSTACK_KINDS.floatingIp]);
    await createCloudProvider(cfg, options).destroy(testContext(cfg, sessionId, logs, other));
    expect(double.inventory().keyPairs.map((k) => k.name)).toEqual([keyName]);
    expect(double.inventory().servers).toEqual([]);
  });

  const steps: Array<[string, OpenStackOperation, number?]> = [
    ["authentication", "auth", 503],
    ["flavor lookup", "listFlavors"],
    ["image lookup", "listImages"],
    ["key pair", "createKeypair", 403],
    ["create server (quota)", "createServer", 413],
    ["wait active (API error)", "getServer"],
    ["wait active (server in ERROR)", "serverBuild"],
    ["floating IP", "createFloatingIp", 409],
  ];
  for (const [what, operation, status] of steps) {
    it(`cleans up and stays usable after a failure at: ${what}`, async () => {
      const provider = createCloudProvider(config(), options);
      double.failNext(operation, { status, message: status === 413 ? "Quota exceeded for instances: Requested 1, but already used 10 of 10 instances" : undefined });
      const error = await failure(provider.ensureMachines(ctx()));
      expect(error.code).toBe("provider_failed");
      if (status === 413) expect(error.detail).toContain("Quota exceeded");
      expect(double.inventory()).toEqual(nothing);
      expect(await ledger.live()).toEqual([]);
      const [m] = await provider.ensureMachines(ctx());
      expect(m.ip).toBe(sshd.host);
      await provider.destroy(ctx());
      expect(double.inventory()).toEqual(nothing);
    });
  }

  it("fails clearly on an unknown flavor", async () => {
    const cfg = config({ size: "m9.huge" });
    const error = await failure(createCloudProvider(cfg, options).ensureMachines(ctx(cfg)));
    expect(error.detail).toContain("m9.huge");
    expect(double.inventory()).toEqual(nothing);
  });

  it("fails on wrong credentials without repeating them", async () => {
    const cfg = config({}, { secret_key: "wrong-Password-123" });
    secrets.add("wrong-Password-123");
    const error = await failure(createCloudProvider(cfg, options).ensureMachines(ctx(cfg)));
    expect(error.detail).toMatch(/HTTP 401/);
  });

  it("gives up on SSH that never answers, cleans up, and a later try works", async () => {
    const dead = createCloudProvider(config(), { ...options, sshPort: await closedPort(), sshTimeoutMs: 200 });
    const error = await failure(dead.ensureMachines(ctx()));
    expect(error.code).toBe("provider_failed");
    expect(error.detail).toMatch(/SSH .* did not answer/);
    expect(double.inventory()).toEqual(nothing);
    const [m] = await createCloudProvider(config(), options).ensureMachines(ctx());
    expect(m.ssh!.port).toBe(sshd.port);
  });

  it("sweeps servers of sessions that are not live, and a dry run only reports them", async () => {
    const provider = createCloudProvider(config(), options);
    const [mine] = await provider.ensureMachines(ctx());
    const stranger = randomUUID();
    const orphan = double.seedServer({ "benchwright:session": stranger, "benchwright:managed": "true" });
    const foreign = double.seedServer({ owner: "someone else" });
    const isLive = async (id: string) => id === sessionId;
    const log = (l: string) => said.push(l);

    const dry = await provider.sweep!(config(), { isLive, dryRun: true, log });
    expect(dry).toEqual([{ provider: "os-test", kind: OPENSTACK_KINDS.server, id: orphan, session_id: stranger, destroyed: false }]);
    expect(double.inventory().servers.map((s) => s.id).sort()).toEqual([mine.id, orphan, foreign].sort());

    const wet = await provider.sweep!(config(), { isLive, dryRun: false, log });
    expect(wet).toEqual([{ provider: "os-test", kind: OPENSTACK_KINDS.server, id: orphan, session_id: stranger, destroyed: true }]);
    expect(double.inventory().servers.map((s) => s.id).sort()).toEqual([mine.id, foreign].sort());

    const all = await provider.sweep!(config(), { isLive: async () => false, dryRun: false, log });
    expect(all.map((r) => r.kind).sort()).toEqual([OPENSTACK_KINDS.floatingIp, OPENSTACK_KINDS.keyPair, OPENSTACK_KINDS.server].sort());
    expect(all.every((r) => r.destroyed && r.session_id === sessionId)).toBe(true);
    expect(double.inventory().servers.map((s) => s.id)).toEqual([foreign]);
    expect(double.inventory().floatingIps).toEqual([]);
    expect(double.inventory().keyPairs).toEqual([]);
  });

  it("lists what is missing", () => {
    const cfg = config({ size: "" }, { auth_url: "", tenant: undefined, auth_version: "2.0_password" });
    expect(validateCloudConfig(cfg)).toEqual([
      "provider.auth_url: is required",
      "provider.tenant: is required",
      "vm.size: is required",
      "provider.auth_version: must be one of: 3, 3.x, 3.x_password, v3",
    ]);
    expect(validateCloudConfig(config())).toEqual([]);
  });

  it("never puts a credential, a key or a token in an error or a log line", () => {
    said.push(...logs);
    expect(secrets.size).toBeGreaterThan(5);
    expect(said.length).toBeGreaterThan(20);
    for (const line of said) {
      for (const secret of secrets) {
        expect(line).not.toContain(secret);
        for (const part of secret.split("\n").filter((p) => p.length >= 16 && !p.startsWith("-----"))) {
          expect(line).not.toContain(part);
        }
      }
    }
  });
});
