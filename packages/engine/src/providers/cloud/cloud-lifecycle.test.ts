import { randomUUID } from "node:crypto";
import { AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, RunInstancesCommand } from "@aws-sdk/client-ec2";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startGceDouble,
  type GceDouble,
  startOpenStackDouble,
  type OpenStackDouble,
  startAzureDouble,
  type AzureDouble,
  startSshd,
  type SshdHarness,
  closedPort,
  leaks,
  TestSession,
} from "@benchwright/testing";
import { createEc2Double, type Ec2Double } from "@benchwright/testing/ec2-double";
import { cloudConfig, failureOf } from "../../test-support/cloud-outcomes.js";
import { InMemoryHostKeyStore } from "../../transport/host-key.js";
import { SshPool } from "../../transport/ssh-pool.js";
import type { CloudConfig } from "../../config/provider-config-types.js";
import type { Machine, ProviderContext } from "../provider.js";
import { publicKeyOf } from "./cloud-provider.js";
import { createCloudProvider, type CloudProviderOptions } from "./index.js";
import { OpenStackClient } from "./openstack-client.js";

// The one lifecycle (CloudProvider) against each cloud's double: no cloud is reachable here, so
// EC2 is the real SDK client answered by aws-sdk-client-mock and OpenStack a local HTTP double.
// Both keep state and hand out the address of a real sshd, which the machines' SSH really is.

/** One cloud as the table below drives it. */
interface Cloud {
  config(service?: Record<string, unknown>): CloudConfig;
  options: CloudProviderOptions;
  /** Everything of ours the double still holds: empty once a session is torn down. */
  leftovers(): unknown[];
  /** Machines the double holds, whatever their state. */
  machines(): number;
  /** Key pairs imported into the double, with their public key. */
  importedKeys(): Array<{ name: string; publicKey?: string }>;
  /** Makes the cloud fail this step of the lifecycle (a key of the driver's table below) next time. */
  fail(step: string): void;
  holdBoot(hold: boolean): void;
  /** Makes a machine the way another session (or another tool) would have, with these tags; returns its id. */
  seed(tags: Record<string, string>): Promise<string>;
  /** Credentials the double was given or handed out. */
  secrets(): string[];
  /**
   * What the firewalls of the session's machines let in, from the double's records, each
   * `<what> from <source>` (`all`: every protocol and port; `the session's machines` for a
   * source that is the session's own machines).
   */
  ingress(): string[];
  /** Each machine's private address, as the double holds it. */
  privateIps(): Record<string, string>;
  /** Every firewall the double holds, ours or not, with its rules. */
  firewalls(): unknown[];
  /** Makes a firewall letting SSH in, as a user would have; returns what `security_group` names for it. */
  seedFirewall(): Promise<string>;
  stop(): Promise<void>;
}

const SESSION = "the session's machines";

let sshd: SshdHarness;
const FAST = { pollIntervalMs: 2, stateTimeoutMs: 2000, sshPollIntervalMs: 20, sshTimeoutMs: 2000 };

async function ec2(): Promise<Cloud> {
  const double = createEc2Double({ sshHost: sshd.host, privateKey: sshd.privateKey, pollsUntilRunning: 2 });
  const mine = <T extends { tags: Record<string, string> }>(xs: T[]) => xs.filter((x) => x.tags["benchwright:managed"] === "true");
  return {
    config: (service = {}) =>
      cloudConfig({
        name: "aws-test",
        serviceType: "vm",
        providerClass: "cloud",
        provider: {
          class: "cloud",
          name: "aws-test",
          driver: "ec2",
          access_id: "AKIAIOSFODNN7EXAMPLE",
          secret_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
          region: "eu-west-1",
        },
        service: { image: "debian-12-amd64-*", size: "t3.micro", vm_user: sshd.username, platform: "debian_12", ...service },
      }),
    options: { outbound: { allowPrivate: true }, ec2Client: double.client, sshPort: sshd.port, ...FAST },
    leftovers: () => {
      const inv = double.inventory();
      return [...mine(inv.instances), ...mine(inv.keyPairs), ...mine(inv.securityGroups)];
    },
    machines: () => double.inventory().instances.length,
    importedKeys: () => double.inventory().keyPairs.filter((k) => k.publicKey),
    fail: (step) => EC2_FAILURES[step](double),
    holdBoot: (hold) => double.holdBoot(hold),
    seed: async (tags) => {
      const Tags = Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
      const out = await double.client.send(
        new RunInstancesCommand({
          ImageId: "ami-0d1e2b3a4c5f60001",
          MinCount: 1,
          MaxCount: 1,
          TagSpecifications: [{ ResourceType: "instance", Tags }],
        }),
      );
      return out.Instances![0].InstanceId!;
    },
    secrets: () => ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
    ingress: () => {
      const inv = double.inventory();
      const theirs = new Set(mine(inv.instances).flatMap((i) => i.groupIds));
      return inv.securityGroups
        .filter((g) => theirs.has(g.id))
        .flatMap((g) => g.rules.map((r) => r.replace(/ from (sg-\S+)$/, (_, id: string) => ` from ${theirs.has(id) ? SESSION : id}`)));
    },
    privateIps: () => Object.fromEntries(double.inventory().instances.map((i) => [i.id, i.privateIp])),
    firewalls: () => double.inventory().securityGroups,
    seedFirewall: async () => {
      const { GroupId } = await double.client.send(new CreateSecurityGroupCommand({ GroupName: "team-ssh", Description: "the team's" }));
      const IpPermissions = [{ IpProtocol: "tcp", FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: "192.0.2.0/24" }] }];
      await double.client.send(new AuthorizeSecurityGroupIngressCommand({ GroupId, IpPermissions }));
      return "team-ssh";
    },
    stop: async () => double.restore(),
  };
}

async function openstack(): Promise<Cloud> {
  // Each server a fixed address of its own (private: a floating IP is still made, at sshd's address).
  const double = await startOpenStackDouble({
    sshHost: sshd.host,
    privateKey: sshd.privateKey,
    pollsUntilActive: 2,
    fixedIp: (n) => `10.0.0.${10 + n}`,
  });
  const managed = (x: { description: string }) => x.description.includes("benchwright:managed=true");
  return {
    config: (service = {}) =>
      cloudConfig({
        name: "os-test",
        serviceType: "vm",
        providerClass: "cloud",
        provider: {
          class: "cloud",
          name: "os-test",
          driver: "openstack",
          auth_url: double.authUrl,
          access_id: double.username,
          secret_key: double.password,
          tenant: double.project,
        },
        service: { image: "debian-12", size: "m1.small", vm_user: sshd.username, platform: "debian_12", network: "private", ...service },
      }),
    options: { outbound: { allowPrivate: true }, sshPort: sshd.port, ...FAST },
    leftovers: () => {
      const inv = double.inventory();
      return [
        ...inv.servers.filter((sv) => sv.metadata["benchwright:managed"] === "true"),
        ...inv.keyPairs,
        ...inv.securityGroups.filter(managed),
        ...inv.floatingIps,
      ];
    },
    machines: () => double.inventory().servers.length,
    importedKeys: () => double.inventory().keyPairs.filter((k) => k.publicKey),
    fail: (step) => OPENSTACK_FAILURES[step](double),
    holdBoot: (hold) => double.holdBoot(hold),
    seed: async (tags) => double.seedServer(tags),
    secrets: () => [double.password, ...double.tokens()],
    ingress: () => {
      const inv = double.inventory();
      const names = new Set(inv.servers.filter((sv) => sv.metadata["benchwright:managed"] === "true").flatMap((sv) => sv.securityGroups));
      const theirs = inv.securityGroups.filter((g) => names.has(g.name));
      const ids = new Set(theirs.map((g) => g.id));
      return theirs.flatMap((g) => g.rules.map((r) => r.replace(/ from (\S+)$/, (_, from: string) => ` from ${ids.has(from) ? SESSION : from}`)));
    },
    privateIps: () => Object.fromEntries(double.inventory().servers.map((sv) => [sv.id, sv.fixedIp])),
    firewalls: () => double.inventory().securityGroups,
    seedFirewall: async () => {
      const client = new OpenStackClient(
        { authUrl: double.authUrl, username: double.username, password: double.password, project: double.project, domain: "Default" },
        { outbound: { allowPrivate: true } },
      );
      await client.allowTcpIn(await client.createSecurityGroup("team-ssh", "the team's"), 22);
      return "team-ssh";
    },
    stop: () => double.stop(),
  };
}

async function gce(): Promise<Cloud> {
  const double = await startGceDouble({ sshHost: sshd.host, pollsUntilRunning: 2, guestAgent: (key) => sshd.authorize(key) });
  const secretKey = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDbenchwrightfake\n-----END PRIVATE KEY-----\n";
  const inv = () => double.inventory();
  return {
    config: (service = {}) =>
      cloudConfig({
        name: "gce-test",
        serviceType: "vm",
        providerClass: "cloud",
        provider: {
          class: "cloud",
          name: "gce-test",
          driver: "gce",
          access_id: "bench@bench-project.iam.gserviceaccount.com",
          secret_key: secretKey,
          project: double.project,
          region: double.zone,
        },
        service: {
          image: "projects/debian-cloud/global/images/family/debian-12",
          size: "e2-small",
          vm_user: sshd.username,
          platform: "debian_12",
          ...service,
        },
      }),
    options: { outbound: { allowPrivate: true }, gceClient: double.clientOptions, sshPort: sshd.port, ...FAST },
    leftovers: () => [
      ...inv().instances.filter((i) => i.labels["benchwright-managed"] === "true"),
      ...inv().firewalls.filter((f) => f.description.includes("benchwright:managed=true")),
    ],
    machines: () => inv().instances.length,
    // GCE has no key pairs: the key it holds for the session is in the instance's metadata.
    importedKeys: () => inv().instances.map((i) => ({ name: i.name, publicKey: i.sshKeys.split(":").slice(1).join(":").replace(/ \S+$/, "") })),
    fail: (step) => GCE_FAILURES[step](double),
    holdBoot: (hold) => double.holdBoot(hold),
    // Label keys and values allow no colon or space.
    seed: async (tags) => double.seedInstance(Object.fromEntries(Object.entries(tags).map(([k, v]) => [k.replace(":", "-"), v.replace(/ /g, "-")]))),
    secrets: () => [double.token, secretKey],
    // A firewall applies to the instances with one of its target tags (all, with none), from its source ranges or tags.
    ingress: () => {
      const tags = new Set(
        inv()
          .instances.filter((i) => i.labels["benchwright-managed"] === "true")
          .flatMap((i) => i.tags),
      );
      return inv()
        .firewalls.filter((f) => f.targetTags.length === 0 || f.targetTags.some((t) => tags.has(t)))
        .flatMap((f) =>
          [...f.sourceRanges, ...f.sourceTags.map((t) => (tags.has(t) ? SESSION : `tag ${t}`))].flatMap((from) => f.allowed.map((a) => `${a} from ${from}`)),
        );
    },
    privateIps: () => Object.fromEntries(inv().instances.map((i) => [i.name, i.networkIP])),
    firewalls: () => inv().firewalls,
    seedFirewall: async () => {
      const res = await fetch(`http://127.0.0.1:${double.clientOptions.port}/compute/v1/projects/${double.project}/global/firewalls`, {
        method: "POST",
        headers: { Authorization: `Bearer ${double.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          name: "team-ssh",
          network: "global/networks/default",
          allowed: [{ IPProtocol: "tcp", ports: ["22"] }],
          sourceRanges: ["192.0.2.0/24"],
          targetTags: ["team"],
        }),
      });
      expect(res.status).toBe(200);
      // GCE's security_group names the network tags firewalls target.
      return "team";
    },
    stop: () => double.stop(),
  };
}

async function azure(): Promise<Cloud> {
  const double = await startAzureDouble({ sshHost: sshd.host, pollsUntilRunning: 2, guestAgent: (key) => sshd.authorize(key) });
  const inv = () => double.inventory();
  const ours = <T extends { tags: Record<string, string> }>(xs: T[]) => xs.filter((x) => x.tags["benchwright:managed"] === "true");
  const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
  return {
    config: (service = {}) => {
      const provider = { class: "cloud" as const, name: "azure-test", driver: "azure", ...double.provider };
      const vm = { image: "Debian:debian-12:12-gen2:latest", size: "Standard_B2s", vm_user: sshd.username, platform: "debian_12", network: double.subnet };
      return cloudConfig({ name: "azure-test", serviceType: "vm", providerClass: "cloud", provider, service: { ...vm, ...service } });
    },
    options: { outbound: { allowPrivate: true }, azureCa: double.ca, sshPort: sshd.port, ...FAST },
    leftovers: () => [
      ...ours(inv().vms),
      ...ours(inv().nics),
      ...ours(inv().publicIps),
      ...ours(inv().securityGroups),
      ...ours(inv().applicationSecurityGroups),
    ],
    machines: () => inv().vms.length,
    // Azure has no key pairs: the key it holds for the session is on the VM.
    importedKeys: () => inv().vms.map((v) => ({ name: v.name, publicKey: v.publicKeys[0] })),
    fail: (step) => AZURE_FAILURES[step](double),
    holdBoot: (hold) => double.holdBoot(hold),
    seed: async (tags) => double.seedVm(tags),
    secrets: () => [double.clientSecret, double.clientId, ...double.tokens()],
    // The rules of the security groups on our VMs' interfaces that let something in, before the first that shuts all out.
    ingress: () => {
      const nics = inv().nics.filter((n) => ours(inv().vms).some((v) => same(v.nicId, n.id)));
      const peers = new Set(nics.flatMap((n) => n.applicationSecurityGroupIds.map((id) => id.toLowerCase())));
      return inv()
        .securityGroups.filter((g) => nics.some((n) => same(n.securityGroupId, g.id)))
        .flatMap((g) => {
          const rules = [...g.rules].sort((a, b) => a.priority - b.priority);
          const shut = rules.findIndex((r) => r.access === "Deny" && r.protocol === "*" && r.destinationPortRange === "*");
          // Azure's default rules after ours let the whole virtual network in, unless one of ours shut it out.
          const open =
            shut < 0
              ? [
                  ...rules,
                  { access: "Allow", protocol: "*", destinationPortRange: "*", sourceAddressPrefix: "VirtualNetwork", sourceApplicationSecurityGroups: [] },
                ]
              : rules.slice(0, shut);
          return open
            .filter((r) => r.access === "Allow")
            .flatMap((r) => {
              const what = r.protocol === "*" ? "all" : `${r.protocol.toLowerCase()}/${r.destinationPortRange}`;
              const from = r.sourceApplicationSecurityGroups.length
                ? r.sourceApplicationSecurityGroups.map((a) => (peers.has(a) ? SESSION : a))
                : [r.sourceAddressPrefix];
              return from.map((f) => `${what} from ${f}`);
            });
        });
    },
    privateIps: () => Object.fromEntries(inv().vms.map((v) => [v.id, inv().nics.find((n) => same(v.nicId, n.id))?.privateIp ?? ""])),
    firewalls: () => [...inv().securityGroups, ...inv().applicationSecurityGroups],
    seedFirewall: async () => double.seedSecurityGroup("team-ssh"),
    stop: () => double.stop(),
  };
}

/** The ledger kinds of machines: ec2:instance, openstack:server, gce:instance, azure:vm. */
const MACHINE_KIND = /:(instance|server|vm)$/;

/** Everything said here (errors and log lines), checked for credentials at the end of each cloud's tests. */
const said: string[] = [];
const failure = (promise: Promise<unknown>) => failureOf(promise, said);

/** Waits until `ready` holds, checking as the cloud is polled. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 5));
}

beforeAll(async () => {
  sshd = await startSshd();
  // Google's and Azure's clients take seconds to load on a busy machine: once, here, not in a test's time.
  await Promise.all([import("./gce-driver.js"), import("./azure-driver.js")]);
}, 60_000);
afterAll(() => sshd?.stop());

// A lifecycle is a dozen HTTP round trips (TLS ones on Azure's double) and an SSH login: on a
// machine busy with other tests, more than vitest's default 5 s.
for (const make of [ec2, openstack, gce, azure]) {
  describe(`the cloud lifecycle on ${make.name}`, { timeout: 30_000 }, () => {
    let cloud: Cloud;
    const current = new TestSession();
    let pool: SshPool;

    beforeEach(async () => {
      cloud = await make();
      current.renew();
      pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    });
    const secrets = new Set<string>();
    afterEach(async () => {
      said.push(...current.logs);
      for (const secret of [...cloud.secrets(), sshd.privateKey]) secrets.add(secret);
      await pool.close();
      await cloud.stop();
    });

    /** A context whose exec runs over real SSH, as the engine's does (post_create_script needs it). */
    const ctx = (_cfg: unknown, signal?: AbortSignal): ProviderContext => ({
      ...current.context(),
      signal,
      exec: async (machine: Machine, command: string) => {
        const t = pool.get(machine.ssh!, `${current.sessionId}/${machine.id}`);
        try {
          return await t.exec(command);
        } finally {
          t.release();
        }
      },
    });

    it("makes a machine that runs commands over SSH, and tears everything down", async () => {
      const cfg = cloud.config({ post_create_script: "echo made" });
      const provider = createCloudProvider(cfg, cloud.options);
      const [m] = await provider.ensureMachines(ctx(cfg));
      expect(m.ssh).toMatchObject({ host: sshd.host, port: sshd.port, username: sshd.username });
      const ran = await ctx(cfg).exec!(m, "echo $((6 * 7))");
      expect(ran.code).toBe(0);
      expect(cloud.leftovers().length).toBeGreaterThanOrEqual(2);
      await provider.destroy(ctx(cfg));
      expect(cloud.leftovers()).toEqual([]);
      expect(await current.ledger.live()).toEqual([]);
    });

    /** The session's machines in the ledger, live ones only, oldest first. */
    const ledgerMachines = async () => (await current.ledger.live()).filter((e) => MACHINE_KIND.test(e.kind));

    it("makes as many machines as the step needs, sharing one key and one firewall, reuses them, and tears them all down", async () => {
      const cfg = cloud.config({ post_create_script: "echo made" });
      const provider = createCloudProvider(cfg, cloud.options);
      const made = await provider.ensureMachines({ ...ctx(cfg), count: 2 });
      const ids = made.map((m) => m.id);
      expect(new Set(ids).size).toBe(2);
      for (const m of made) expect((await ctx(cfg).exec!(m, "true")).code).toBe(0);
      // Handed over in launch order, which is the ledger's.
      const recorded = await ledgerMachines();
      expect(recorded.map((e) => e.id)).toEqual(ids);
      expect(recorded.every((e) => e.meta.post_created === true)).toBe(true);
      expect(new Set(recorded.map((e) => e.meta.key_name)).size).toBe(1);
      // One key pair and one firewall (kinds other than machines and their addresses and
      // interfaces) for both, and at most one more firewall letting them reach each other (GCE's, Azure's).
      const shared = (await current.ledger.live()).filter((e) => !MACHINE_KIND.test(e.kind) && !/(floating_ip|public_ip|nic)$/.test(e.kind));
      const peers = shared.filter((e) => e.meta.peers === true);
      expect(shared.length).toBeGreaterThan(0);
      expect(peers.length).toBeLessThanOrEqual(1);
      expect(new Set(shared.map((e) => e.kind)).size).toBe(shared.length - peers.length);

      // Asked again, by this provider or another, for as many or fewer: the same machines, nothing new.
      const entries = current.ledger.entries.length;
      const again = await createCloudProvider(cfg, cloud.options).ensureMachines({ ...ctx(cfg), count: 2 });
      expect(again.map((m) => m.id)).toEqual(ids);
      expect((await provider.ensureMachines({ ...ctx(cfg), count: 1 })).map((m) => m.id)).toEqual(ids);
      expect((await provider.ensureMachines(ctx(cfg))).map((m) => m.id)).toEqual(ids);
      expect(current.ledger.entries.length).toBe(entries);

      // One more: the two kept first, a third launched after them.
      const three = await provider.ensureMachines({ ...ctx(cfg), count: 3 });
      expect(three.map((m) => m.id).slice(0, 2)).toEqual(ids);
      expect(new Set(three.map((m) => m.id)).size).toBe(3);

      await provider.destroy(ctx(cfg));
      expect(cloud.leftovers()).toEqual([]);
      expect(await current.ledger.live()).toEqual([]);
    });

    it("sweeps every machine of a session that is gone", async () => {
      const cfg = cloud.config();
      const provider = createCloudProvider(cfg, cloud.options);
      const made = await provider.ensureMachines({ ...ctx(cfg), count: 2 });
      const swept = await provider.sweep!({ isLive: async () => false, dryRun: false, log: (line) => said.push(line) });
      expect(
        swept
          .filter((r) => MACHINE_KIND.test(r.kind))
          .map((r) => r.id)
          .sort(),
      ).toEqual(made.map((m) => m.id).sort());
      expect(swept.every((r) => r.destroyed)).toBe(true);
      expect(cloud.leftovers()).toEqual([]);
    });

    it("lets the session's machines reach each other on every protocol and port, and the outside only in on SSH, and hands over their private addresses", async () => {
      const cfg = cloud.config();
      const provider = createCloudProvider(cfg, cloud.options);
      const made = await provider.ensureMachines({ ...ctx(cfg), count: 2 });
      expect(cloud.ingress().sort()).toEqual([`all from ${SESSION}`, `tcp/${sshd.port} from 0.0.0.0/0`]);
      // SSH goes to the address reachable from here; the roles reach each other at the private one.
      const privateIps = cloud.privateIps();
      for (const m of made) {
        expect(m.ip).toBe(sshd.host);
        expect(m.privateIp).toBe(privateIps[m.id]);
      }
      expect(new Set(made.map((m) => m.privateIp)).size).toBe(2);
      // Asked again (a later step): the same rules, none twice.
      await createCloudProvider(cfg, cloud.options).ensureMachines({ ...ctx(cfg), count: 2 });
      expect(cloud.ingress().sort()).toEqual([`all from ${SESSION}`, `tcp/${sshd.port} from 0.0.0.0/0`]);
      await provider.destroy(ctx(cfg));
      expect(cloud.leftovers()).toEqual([]);
      expect(cloud.firewalls()).toEqual([]);
    });

    it("leaves a configured firewall as it is, and makes none", async () => {
      const group = await cloud.seedFirewall();
      const before = structuredClone(cloud.firewalls());
      expect(before).toHaveLength(1);
      const cfg = cloud.config({ security_group: group });
      const provider = createCloudProvider(cfg, cloud.options);
      const made = await provider.ensureMachines({ ...ctx(cfg), count: 2 });
      expect(cloud.firewalls()).toEqual(before);
      expect(made.every((m) => m.privateIp === cloud.privateIps()[m.id])).toBe(true);
      await provider.destroy(ctx(cfg));
      expect(cloud.firewalls()).toEqual(before);
      expect(cloud.leftovers()).toEqual([]);
    });

    // The cloud fails the second machine (its launch, or its boot) once the first is recorded.
    const second = {
      ec2: ["launching", "waiting for the machine (it dies)"],
      openstack: ["launching", "waiting for the machine (it fails)"],
      gce: ["launching", "waiting for the machine (it fails)"],
      azure: ["launching", "waiting for the machine (it fails)"],
    }[make.name]!;
    for (const step of second) {
      it(`tears down every machine of the session when ${step} fails for the second one`, async () => {
        const cfg = cloud.config();
        const context = { ...ctx(cfg), count: 2 };
        const record = context.resources.record.bind(context.resources);
        let first = true;
        context.resources = {
          ...context.resources,
          record: async (kind, id, meta) => {
            await record(kind, id, meta);
            if (MACHINE_KIND.test(kind) && first) {
              first = false;
              cloud.fail(step);
            }
          },
        };
        const error = await failure(createCloudProvider(cfg, cloud.options).ensureMachines(context));
        expect(error.code).toBe("provider_failed");
        // With what failed: once in CI (azure, the boot case) the ensure failed before any machine was recorded.
        expect(first, error.message).toBe(false);
        expect(cloud.leftovers()).toEqual([]);
        expect(await current.ledger.live()).toEqual([]);
        // Both were recorded before anything waited on them, and both are gone.
        const machines = current.ledger.entries.filter((e) => MACHINE_KIND.test(e.kind));
        expect(machines.length).toBe(step === "launching" ? 1 : 2);
        expect(machines.every((e) => e.destroyed)).toBe(true);
      });
    }

    it("stops waiting for all the machines when the step is aborted while they boot, and leaves nothing", async () => {
      cloud.holdBoot(true);
      const cfg = cloud.config();
      const provider = createCloudProvider(cfg, { ...cloud.options, stateTimeoutMs: 600_000 });
      const abort = new AbortController();
      const ensuring = failure(provider.ensureMachines({ ...ctx(cfg, abort.signal), count: 2 }));
      await until(() => cloud.machines() === 2);
      abort.abort();
      expect((await ensuring).detail).toContain("cancelled");
      expect(cloud.leftovers()).toEqual([]);
      const machines = current.ledger.entries.filter((e) => MACHINE_KIND.test(e.kind));
      expect(machines.length).toBe(2);
      expect(machines.every((e) => e.destroyed)).toBe(true);
    }, 30_000);

    // Every step of the lifecycle, each failing once: nothing is left, and a retry works.
    const failures = { ec2: EC2_FAILURES, openstack: OPENSTACK_FAILURES, gce: GCE_FAILURES, azure: AZURE_FAILURES }[make.name]!;
    const steps = [...Object.keys(failures), "waiting for SSH", "post_create_script"];
    for (const step of steps) {
      it(`leaves nothing behind when ${step} fails, and a later try works`, async () => {
        // The key is imported only when a private key comes without a key name.
        const service = step === "importing the key pair" ? { ssh_private_key: sshd.privateKey } : {};
        const cfg = cloud.config(step === "post_create_script" ? { ...service, post_create_script: "echo no >&2; exit 3" } : service);
        const options = step === "waiting for SSH" ? { ...cloud.options, sshPort: await closedPort(), sshTimeoutMs: 200 } : cloud.options;
        if (step !== "waiting for SSH" && step !== "post_create_script") cloud.fail(step);
        const error = await failure(createCloudProvider(cfg, options).ensureMachines(ctx(cfg)));
        expect(error.code).toBe("provider_failed");
        if (step === "waiting for SSH") expect(error.detail).toMatch(/SSH on \S+ did not answer/);
        if (step === "post_create_script") expect(error.detail).toMatch(/post_create_script on \S+ exited with code 3/);
        expect(cloud.leftovers()).toEqual([]);
        expect(await current.ledger.live()).toEqual([]);
        const retry = cloud.config(service);
        const [m] = await createCloudProvider(retry, cloud.options).ensureMachines(ctx(retry));
        expect(m.ip).toBe(sshd.host);
        await createCloudProvider(retry, cloud.options).destroy(ctx(retry));
        expect(cloud.leftovers()).toEqual([]);
      });
    }

    it("sweeps what sessions that are gone left behind, leaves others' alone, and a dry run only reports", async () => {
      const cfg = cloud.config();
      const provider = createCloudProvider(cfg, cloud.options);
      const [mine] = await provider.ensureMachines(ctx(cfg));
      const stranger = randomUUID();
      const orphan = await cloud.seed({ "benchwright:session": stranger, "benchwright:managed": "true" });
      await cloud.seed({ owner: "someone else" });
      const machineKind = current.ledger.entries.find((e) => e.id === mine.id)!.kind;
      const isLive = async (id: string) => id === current.sessionId;
      const log = (line: string) => said.push(line);

      const dry = await provider.sweep!({ isLive, dryRun: true, log });
      expect(dry).toEqual([{ provider: cfg.name, kind: machineKind, id: orphan, session_id: stranger, destroyed: false }]);
      expect(cloud.machines()).toBe(3);

      const wet = await provider.sweep!({ isLive, dryRun: false, log });
      expect(wet).toEqual([{ provider: cfg.name, kind: machineKind, id: orphan, session_id: stranger, destroyed: true }]);
      expect(cloud.machines()).toBe(2);

      // Once the session is over, all it made goes, and only that.
      const all = await provider.sweep!({ isLive: async () => false, dryRun: false, log });
      // Every kind the cloud holds for the session (GCE's SSH key is no resource there).
      expect(all.map((r) => r.kind)).toContain(machineKind);
      expect(all.every((r) => current.ledger.entries.some((e) => e.kind === r.kind && e.id === r.id))).toBe(true);
      expect(all.every((r) => r.destroyed && r.session_id === current.sessionId)).toBe(true);
      expect(cloud.leftovers()).toEqual([]);
      // The one left is the stranger's that was never ours.
      expect(cloud.machines()).toBe(1);
    });

    it("imports an ssh_private_key given without a key_name as the session's key pair, logs in with it, and deletes it at teardown", async () => {
      const cfg = cloud.config({ ssh_private_key: sshd.privateKey });
      const provider = createCloudProvider(cfg, cloud.options);
      const [m] = await provider.ensureMachines(ctx(cfg));
      const [imported] = cloud.importedKeys();
      expect(imported.publicKey).toBe(await publicKeyOf(sshd.privateKey));
      expect(m.ssh!.privateKey!.trim()).toBe(sshd.privateKey.trim());
      expect((await ctx(cfg).exec!(m, "true")).code).toBe(0);
      // The private key stays in the configuration: the ledger holds none of it.
      expect(current.ledger.entries.every((e) => e.meta.private_key === undefined)).toBe(true);
      const again = await createCloudProvider(cfg, cloud.options).ensureMachines(ctx(cfg));
      expect(again[0].id).toBe(m.id);
      await provider.destroy(ctx(cfg));
      expect(cloud.importedKeys()).toEqual([]);
      expect(cloud.leftovers()).toEqual([]);
    });

    it("stops waiting when the step is aborted while the machine boots, and leaves nothing", async () => {
      cloud.holdBoot(true);
      const cfg = cloud.config();
      // Without the abort the wait would last ten minutes, far beyond this test's time.
      const provider = createCloudProvider(cfg, { ...cloud.options, stateTimeoutMs: 600_000 });
      const abort = new AbortController();
      const ensuring = failure(provider.ensureMachines(ctx(cfg, abort.signal)));
      await until(() => cloud.machines() > 0);
      abort.abort();
      const error = await ensuring;
      expect(error.detail).toContain("cancelled");
      expect(cloud.leftovers()).toEqual([]);
      expect(await current.ledger.live()).toEqual([]);
      // The machine was recorded before the wait that the abort ended.
      expect(current.ledger.entries.some((e) => MACHINE_KIND.test(e.kind) && e.destroyed)).toBe(true);
    }, 30_000);

    it("never puts a credential, a key or a token in an error or a log line", () => {
      expect(said.length).toBeGreaterThan(50);
      expect(leaks(said, secrets)).toEqual([]);
    });
  });
}

/** Each step of the lifecycle where EC2 can fail, and how to make the double fail it. */
const EC2_FAILURES: Record<string, (d: Ec2Double) => void> = {
  "creating the key pair": (d) => d.failNext("CreateKeyPair", "KeyPairLimitExceeded"),
  "importing the key pair": (d) => d.failNext("ImportKeyPair", "InvalidKey.Format"),
  "creating the security group": (d) => d.failNext("CreateSecurityGroup", "SecurityGroupLimitExceeded"),
  "opening SSH": (d) => d.failNext("AuthorizeSecurityGroupIngress", "RulesPerSecurityGroupLimitExceeded"),
  "letting the session's machines in": (d) => d.failNext("AuthorizeSecurityGroupIngress", "RulesPerSecurityGroupLimitExceeded", 1),
  "finding the image": (d) => d.failNext("DescribeImages", "RequestLimitExceeded"),
  launching: (d) => d.failNext("RunInstances", "InstanceLimitExceeded"),
  "waiting for the machine (API error)": (d) => d.failNext("DescribeInstances", "RequestLimitExceeded"),
  "waiting for the machine (it dies)": (d) => d.failNext("InstanceLaunch"),
};

/** Each step of the lifecycle where OpenStack can fail, and how to make the double fail it. */
const OPENSTACK_FAILURES: Record<string, (d: OpenStackDouble) => void> = {
  authenticating: (d) => d.failNext("auth", { status: 503 }),
  "creating the key pair": (d) => d.failNext("createKeypair", { status: 403, message: "Quota exceeded for key pairs" }),
  "importing the key pair": (d) => d.failNext("createKeypair", { status: 400, message: "Keypair data is invalid" }),
  "creating the security group": (d) => d.failNext("createSecurityGroup", { status: 409, message: "Quota exceeded for resources: ['security_group']" }),
  "opening SSH": (d) => d.failNext("createSecurityGroupRule"),
  "letting the session's machines in": (d) =>
    d.failNext("createSecurityGroupRule", { status: 409, message: "Quota exceeded for resources: ['security_group_rule']" }, 1),
  "finding the flavor": (d) => d.failNext("listFlavors"),
  "finding the image": (d) => d.failNext("listImages"),
  launching: (d) => d.failNext("createServer", { status: 413, message: "Quota exceeded for instances" }),
  "waiting for the machine (API error)": (d) => d.failNext("getServer"),
  "waiting for the machine (it fails)": (d) => d.failNext("serverBuild"),
  "attaching an address": (d) => d.failNext("createFloatingIp", { status: 409, message: "No more IP addresses available" }),
};

/** Each step of the lifecycle where GCE can fail (keys are no call there), and how to make the double fail it. */
const GCE_FAILURES: Record<string, (d: GceDouble) => void> = {
  "creating the firewall": (d) => d.failNext("insertFirewall", { status: 403, message: "Quota 'FIREWALLS' exceeded. Limit: 200.0 globally." }),
  // The second firewall, letting the session's machines reach each other.
  "creating the internal firewall": (d) => d.failNext("insertFirewall", { status: 403, message: "Quota 'FIREWALLS' exceeded. Limit: 200.0 globally." }, 1),
  launching: (d) => d.failNext("insertInstance", { status: 403, message: "Quota 'CPUS' exceeded. Limit: 8.0 in region europe-west1." }),
  // Not a 503: the client retries those itself.
  "waiting for the machine (API error)": (d) => d.failNext("getInstance", { status: 403, message: "Rate Limit Exceeded" }),
  "waiting for the machine (it fails)": (d) => d.failNext("instanceBoot"),
};

/** Each step of the lifecycle where Azure can fail (keys are no call there), and how to make the double fail it. */
const AZURE_FAILURES: Record<string, (d: AzureDouble) => void> = {
  // Not a 5xx: the SDK retries those itself.
  authenticating: (d) => d.failNext("token", { status: 400, error: "invalid_request", message: "AADSTS90002: Tenant not found." }),
  "creating the security group": (d) =>
    d.failNext("putSecurityGroup", { status: 409, error: "QuotaExceeded", message: "Quota exceeded for resources: NetworkSecurityGroups." }),
  // Accepted, then failed: what the operation left must go too.
  "provisioning the security group": (d) => d.failNext("putSecurityGroup", { async: true, error: "InternalServerError", message: "An error occurred." }),
  "opening SSH": (d) => d.failNext("putSecurityRule", { status: 400, error: "SecurityRuleConflict", message: "Rules conflict." }),
  "creating the application security group": (d) =>
    d.failNext("putApplicationSecurityGroup", { status: 409, error: "QuotaExceeded", message: "Quota exceeded for resources: ApplicationSecurityGroups." }),
  "letting the session's machines in": (d) => d.failNext("putSecurityRule", { status: 400, error: "SecurityRulesLimitReached", message: "Too many rules." }, 1),
  "making the public address": (d) =>
    d.failNext("putPublicIp", { status: 409, error: "PublicIPCountLimitReached", message: "Cannot create more than 10 public IP addresses." }),
  "making the network interface": (d) => d.failNext("putNic", { async: true, error: "InternalServerError", message: "An error occurred." }),
  launching: (d) =>
    d.failNext("putVm", {
      status: 409,
      error: "OperationNotAllowed",
      message: "Operation could not be completed as it results in exceeding approved standardBSFamily Cores quota.",
    }),
  "waiting for the machine (API error)": (d) =>
    d.failNext("getVm", { status: 403, error: "AuthorizationFailed", message: "The client does not have authorization." }),
  "waiting for the machine (it fails)": (d) => d.failNext("vmBoot"),
};
