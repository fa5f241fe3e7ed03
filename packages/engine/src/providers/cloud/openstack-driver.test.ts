import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startOpenStackDouble,
  type OpenStackDouble,
  startSshd,
  type SshdHarness,
  createMemoryLedger,
  leaks,
  loginWorks,
  TestSession,
  testContext,
  type MemoryLedger,
} from "@benchwright/testing";
import { cloudConfig, configProblems, failureOf } from "../../test-support/cloud-outcomes.js";
import type { ResolvedConfig } from "../../model/resolved-config.js";
import type { Machine } from "../provider.js";
import type { ExecOptions } from "../../transport/transport.js";
import { createCloudProvider, OPENSTACK_KINDS, type CloudProviderOptions } from "./index.js";
import { guessVmUser } from "../../config/parse-cloud-config.js";
import { SshPool } from "../../transport/ssh-pool.js";
import { InMemoryHostKeyStore } from "../../transport/host-key.js";

const said: string[] = [];
const secrets = new Set<string>();

const failure = (promise: Promise<unknown>) => failureOf(promise, said);

const nothing = { servers: [], keyPairs: [], securityGroups: [], floatingIps: [] };

/**
 * Stands in for a new machine's sshd that takes a while: the first `silentFor` connections
 * are dropped without a banner, later ones get one. Counts every connection (each is a probe).
 */
async function slowSshd(silentFor: number): Promise<{ port: number; probes: () => number; stop: () => Promise<void> }> {
  let probes = 0;
  const server = createServer((socket) => {
    probes += 1;
    socket.on("error", () => undefined);
    if (probes <= silentFor) socket.destroy();
    else socket.end("SSH-2.0-OpenSSH_9.2\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    probes: () => probes,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("openstack provider", () => {
  // A real private sshd stands in for the machines; the doubles hand out its address and key.
  let sshd: SshdHarness;
  let double: OpenStackDouble;
  const current = new TestSession();
  let options: CloudProviderOptions;

  const sections = (service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}): ResolvedConfig => ({
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
    service: {
      image: "debian-12",
      size: "m1.small",
      vm_user: sshd.username,
      platform: "debian_12",
      network: "private",
      security_group: "ssh",
      ...service,
    },
  });

  const config = (service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}) => cloudConfig(sections(service, provider));

  beforeAll(async () => {
    sshd = await startSshd();
    secrets.add(sshd.privateKey);
  }, 30_000);
  afterAll(() => sshd.stop());

  beforeEach(async () => {
    double = await startOpenStackDouble({ sshHost: sshd.host, privateKey: sshd.privateKey, pollsUntilActive: 2 });
    secrets.add(double.username).add(double.password);
    current.renew();
    options = {
      outbound: { allowPrivate: true },
      sshPort: sshd.port,
      pollIntervalMs: 2,
      stateTimeoutMs: 2000,
      sshPollIntervalMs: 20,
      sshTimeoutMs: 2000,
    };
  });
  afterEach(async () => {
    said.push(...current.logs);
    for (const t of double.tokens()) secrets.add(t);
    for (const e of current.ledger.entries) if (typeof e.meta.private_key === "string") secrets.add(e.meta.private_key);
    await double.stop();
  });

  const ctx = (_cfg?: unknown) => current.context();

  it("creates a key pair, a server and a floating IP, and hands over a machine that answers SSH", async () => {
    const provider = createCloudProvider(config(), options);
    const [m] = await provider.ensureMachines(ctx());
    const inv = double.inventory();
    expect(inv.servers).toHaveLength(1);
    expect(inv.servers[0].metadata).toEqual({ "benchwright:session": current.sessionId, "benchwright:managed": "true" });
    expect(inv.floatingIps).toHaveLength(1);
    expect(inv.floatingIps[0].portId).toBe(`port-${inv.servers[0].id}`);
    expect(m).toMatchObject({
      id: inv.servers[0].id,
      ip: sshd.host,
      privateIp: inv.servers[0].fixedIp,
      platform: "debian_12",
      workRoot: "~/.benchwright",
      allowInstall: true,
    });
    expect(m.ssh).toMatchObject({ host: sshd.host, port: sshd.port, username: sshd.username });
    expect(await loginWorks(m.ssh!)).toBe("ok");
    expect(current.ledger.entries.map((e) => e.kind)).toEqual([OPENSTACK_KINDS.keyPair, OPENSTACK_KINDS.server, OPENSTACK_KINDS.floatingIp]);
    expect(current.ledger.entries[0].meta.private_key).toBe(m.ssh!.privateKey);
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
    expect(await current.ledger.live()).toEqual([]);
    await provider.destroy(ctx());
  });

  it("returns the same server when called twice, even with a new provider and expired tokens", async () => {
    const first = await createCloudProvider(config(), options).ensureMachines(ctx());
    double.revokeTokens();
    const second = await createCloudProvider(config(), options).ensureMachines(ctx());
    // Only the call that made it says how long it took to boot.
    expect(first[0].boot?.sshReadySeconds).toBeGreaterThan(0);
    expect(second).toEqual(first.map(({ boot: _boot, ...machine }) => machine));
    expect(double.inventory().servers).toHaveLength(1);
    expect(double.inventory().floatingIps).toHaveLength(1);
  });

  it("uses a configured key pair by name, with an image id and a network uuid", async () => {
    // Any key made at Nova will do as "the team's key".
    const seed = createCloudProvider(config(), options);
    const [seeded] = await seed.ensureMachines(ctx());
    const keyName = current.ledger.entries[0].id;
    await seed.destroy({
      ...ctx(),
      resources: { ...current.ledger, live: async () => (await current.ledger.live()).filter((e) => e.kind !== OPENSTACK_KINDS.keyPair) },
    });
    const other = createMemoryLedger();
    const cfg = config({ key_name: keyName, ssh_private_key: seeded.ssh!.privateKey });
    const [m] = await createCloudProvider(cfg, options).ensureMachines(testContext(current.sessionId, current.logs, other));
    expect(m.ssh!.privateKey).toBe(seeded.ssh!.privateKey);
    expect(other.entries.map((e) => e.kind)).toEqual([OPENSTACK_KINDS.server, OPENSTACK_KINDS.floatingIp]);
    await createCloudProvider(cfg, options).destroy(testContext(current.sessionId, current.logs, other));
    expect(double.inventory().keyPairs.map((k) => k.name)).toEqual([keyName]);
    expect(double.inventory().servers).toEqual([]);
  });

  // A failure at each step of the lifecycle, SSH that never answers, and the sweep: see cloud-lifecycle.test.ts.

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

  it("lists what is missing", () => {
    const cfg = sections({ size: "" }, { auth_url: "", tenant: undefined, auth_version: "2.0_password" });
    expect(configProblems(cfg)).toEqual([
      { path: "/config/provider/auth_url", message: "is empty: must be a non-empty string" },
      { path: "/config/vm/size", message: "is empty: must be a non-empty string" },
      { path: "/config/provider/auth_version", message: "is '2.0_password': must be one of: 3, 3.x, 3.x_password, v3" },
    ]);
    expect(configProblems(sections())).toEqual([]);
  });

  // The Benchmarking Suite's keys (benchsuite-stdlib's LibcloudComputeProvider), where it read them.
  describe("the ancestor's keys", () => {
    /** A context whose exec runs commands over real SSH, as the engine's does. */
    let pool: SshPool;
    beforeEach(() => {
      pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    });
    afterEach(() => pool.close());
    const ctxWithExec = (_cfg?: unknown, ledger2: MemoryLedger = current.ledger) => ({
      ...testContext(current.sessionId, current.logs, ledger2),
      exec: async (machine: Machine, command: string, opts?: ExecOptions) => {
        const t = pool.get(machine.ssh!, `${current.sessionId}/${machine.id}`);
        try {
          return await t.exec(command, opts);
        } finally {
          t.release();
        }
      },
    });
    const ancestorService = { network: undefined, security_group: undefined };

    it("attaches the provider-level network and security group to the server it creates", async () => {
      const cfg = config(ancestorService, { network: "lab", security_group: "ssh" });
      await createCloudProvider(cfg, options).ensureMachines(ctx(cfg));
      const [server] = double.inventory().servers;
      expect(server.network).toBe("lab");
      expect(server.securityGroups).toEqual(["ssh"]);
    });

    it("makes the session a security group letting SSH in when none is configured (as the ancestor's benchsuite_sg), deletes it with the session, and a service type's own keys win over the provider's", async () => {
      const bare = config(ancestorService);
      await createCloudProvider(bare, options).ensureMachines(ctx(bare));
      const [group] = double.inventory().securityGroups;
      // SSH from anywhere; every protocol and port from the group's own members, and from nowhere else.
      expect(group).toMatchObject({
        rules: [`tcp/${sshd.port} from 0.0.0.0/0`, `all from ${group.id}`],
        description: `benchwright:session=${current.sessionId} benchwright:managed=true`,
      });
      expect(double.inventory().servers[0]).toMatchObject({ network: "private", securityGroups: [group.name] });
      expect(current.ledger.entries.map((e) => e.kind)).toEqual([
        OPENSTACK_KINDS.keyPair,
        OPENSTACK_KINDS.securityGroup,
        OPENSTACK_KINDS.server,
        OPENSTACK_KINDS.floatingIp,
      ]);
      await createCloudProvider(bare, options).destroy(ctx(bare));
      expect(double.inventory()).toEqual(nothing);
      const both = config({ network: "lab", security_group: "default" }, { network: "private", security_group: "ssh" });
      await createCloudProvider(both, options).ensureMachines(ctx(both));
      expect(double.inventory().servers[0]).toMatchObject({ network: "lab", securityGroups: ["default"] });
    });

    it("fails clearly, and cleans up, on a provider-level network that does not exist", async () => {
      const cfg = config(ancestorService, { network: "nowhere" });
      const error = await failure(createCloudProvider(cfg, options).ensureMachines(ctx(cfg)));
      expect(error.detail).toContain("no network named 'nowhere'");
      expect(double.inventory()).toEqual(nothing);
    });

    it("reaches the server on its fixed address, with no floating IP, under benchsuite.openstack.no_floating_ip", async () => {
      const cfg = config(ancestorService, { "benchsuite.openstack.no_floating_ip": "true" });
      const [m] = await createCloudProvider(cfg, options).ensureMachines(ctx(cfg));
      expect(double.inventory().floatingIps).toEqual([]);
      expect(current.ledger.entries.map((e) => e.kind)).not.toContain(OPENSTACK_KINDS.floatingIp);
      expect(m.ip).toBe(sshd.host);
      const off = config(ancestorService, { "benchsuite.openstack.no_floating_ip": "false" });
      await createCloudProvider(off, options).destroy(ctx(off));
      await createCloudProvider(off, options).ensureMachines(ctx(off));
      expect(double.inventory().floatingIps).toHaveLength(1);
    });

    it("probes SSH new_vm.connection_retry_times times, new_vm.connection_retry_period apart, then gives up and cleans up", async () => {
      const slow = await slowSshd(Infinity);
      try {
        const cfg = config({}, { "new_vm.connection_retry_times": "3", "new_vm.connection_retry_period": "0.02" });
        const { sshPollIntervalMs: _i, sshTimeoutMs: _t, ...knobs } = options;
        const error = await failure(createCloudProvider(cfg, { ...knobs, sshPort: slow.port }).ensureMachines(ctx(cfg)));
        expect(error.code).toBe("provider_failed");
        expect(error.detail).toContain("did not answer after 3 attempts, 0.02 s apart");
        expect(slow.probes()).toBe(3);
        expect(double.inventory()).toEqual(nothing);
      } finally {
        await slow.stop();
      }
    });

    it("keeps probing a machine whose SSH comes up late, within new_vm.connection_retry_times", async () => {
      const slow = await slowSshd(4);
      try {
        const cfg = config({}, { "new_vm.connection_retry_times": 6, "new_vm.connection_retry_period": 0.02 });
        const { sshPollIntervalMs: _i, sshTimeoutMs: _t, ...knobs } = options;
        const [m] = await createCloudProvider(cfg, { ...knobs, sshPort: slow.port }).ensureMachines(ctx(cfg));
        expect(m.ssh!.port).toBe(slow.port);
        expect(slow.probes()).toBe(5);
      } finally {
        await slow.stop();
      }
    });

    it("takes the ancestor's defaults for the retry key not given, and lets the count bound the wait", () => {
      const times = config({}, { "new_vm.connection_retry_times": "4" });
      expect(times).toMatchObject({ sshAttempts: 4, sshPollIntervalMs: 30_000, sshTimeoutMs: Infinity });
      const period = config({}, { "new_vm.connection_retry_period": "10" });
      expect(period).toMatchObject({ sshAttempts: 20, sshPollIntervalMs: 10_000, sshTimeoutMs: Infinity });
      const both = config({ ssh_timeout: 60 }, { "new_vm.connection_retry_times": "4" });
      expect(both).toMatchObject({ sshAttempts: 4, sshTimeoutMs: 60_000 });
      expect(config()).toMatchObject({ sshAttempts: undefined, sshPollIntervalMs: 3000, sshTimeoutMs: 300_000 });
      expect(configProblems(sections({}, { "new_vm.connection_retry_times": "2.5", "new_vm.connection_retry_period": "soon" }))).toEqual([
        { path: "/config/provider/new_vm.connection_retry_times", message: "is '2.5': must be an integer of at least 1" },
        { path: "/config/provider/new_vm.connection_retry_period", message: "is 'soon': must be a positive number" },
      ]);
    });

    it("takes access_id as the tenant, and guesses vm_user, when they are not given", async () => {
      const own = await startOpenStackDouble({
        sshHost: sshd.host,
        privateKey: sshd.privateKey,
        project: "bench-user",
        username: "bench-user",
      });
      try {
        const cfg = config(
          { vm_user: undefined, platform: "ubuntu_22_04" },
          { tenant: undefined, auth_url: own.authUrl, access_id: own.username, secret_key: own.password },
        );
        const [m] = await createCloudProvider(cfg, options).ensureMachines(ctx(cfg));
        expect(m.ssh!.username).toBe("ubuntu");
        expect(own.inventory().servers).toHaveLength(1);
        await createCloudProvider(cfg, options).destroy(ctx(cfg));
      } finally {
        for (const t of own.tokens()) secrets.add(t);
        await own.stop();
      }
      expect(guessVmUser("", "CentOS-7-x86_64")).toBe("centos");
      expect(guessVmUser("debian_12", "img")).toBe("debian");
      expect(guessVmUser("", "cirros-0.6")).toBe("root");
    });

    it("runs post_create_script once on each new machine, after SSH answers, however often the machines are asked for", async () => {
      const dir = mkdtempSync(join(tmpdir(), "bw-post-create-"));
      try {
        const marker = join(dir, "ran");
        const cfg = config({ post_create_script: `echo "as $(id -un)" >> '${marker}'\necho hello-from-post-create` });
        const [m] = await createCloudProvider(cfg, options).ensureMachines(ctxWithExec(cfg));
        await createCloudProvider(cfg, options).ensureMachines(ctxWithExec(cfg));
        expect(readFileSync(marker, "utf8")).toBe(`as ${sshd.username}\n`);
        expect(current.ledger.entries.find((e) => e.kind === OPENSTACK_KINDS.server)!.meta).toMatchObject({ post_created: true });
        expect(current.logs.some((l) => l.includes(`post_create_script on ${m.id} succeeded: hello-from-post-create`))).toBe(true);
        // A new machine (the first one gone) gets the script again.
        await createCloudProvider(cfg, options).destroy(ctxWithExec(cfg));
        await createCloudProvider(cfg, options).ensureMachines(ctxWithExec(cfg));
        expect(readFileSync(marker, "utf8").split("\n").filter(Boolean)).toHaveLength(2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("fails with the script's exit code and output when post_create_script fails, destroys the machine, and a fixed script works", async () => {
      const bad = config({ post_create_script: "echo 'sudo: sorry, you must have a tty' >&2\nexit 3" });
      const error = await failure(createCloudProvider(bad, options).ensureMachines(ctxWithExec(bad)));
      expect(error.code).toBe("provider_failed");
      expect(error.detail).toMatch(/post_create_script on \S+ exited with code 3; its output ended with: sudo: sorry, you must have a tty/);
      expect(double.inventory()).toEqual(nothing);
      expect(await current.ledger.live()).toEqual([]);
      const good = config({ post_create_script: "true" });
      const [m] = await createCloudProvider(good, options).ensureMachines(ctxWithExec(good));
      expect(m.ip).toBe(sshd.host);
    });

    it("puts step dirs below working_dir", async () => {
      const at = (working_dir?: string) => config({ working_dir }).workRoot;
      expect(at(undefined)).toBe("~/.benchwright");
      expect(at("/srv/bench/")).toBe("/srv/bench/.benchwright");
      expect(at("bench")).toBe("~/bench/.benchwright");
      expect(at("~")).toBe("~/.benchwright");
      const cfg = config({ working_dir: "/tmp/bench" });
      const [m] = await createCloudProvider(cfg, options).ensureMachines(ctx(cfg));
      expect(m.workRoot).toBe("/tmp/bench/.benchwright");
      const allowed = "must name one directory plainly: absolute, ~/dir, or relative to the login home";
      expect(configProblems(sections({ working_dir: "/srv/../etc" }))).toEqual([
        { path: "/config/vm/working_dir", message: `contains a . or .. segment: ${allowed}` },
      ]);
      expect(configProblems(sections({ working_dir: "~bob/x" }))).toEqual([{ path: "/config/vm/working_dir", message: `starts with ~user: ${allowed}` }]);
    });
  });

  it("never puts a credential, a key or a token in an error or a log line", () => {
    said.push(...current.logs);
    expect(secrets.size).toBeGreaterThan(5);
    expect(said.length).toBeGreaterThan(20);
    expect(leaks(said, secrets)).toEqual([]);
  });
});
