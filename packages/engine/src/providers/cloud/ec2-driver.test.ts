import { CreateKeyPairCommand, CreateSecurityGroupCommand } from "@aws-sdk/client-ec2";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSshd, type SshdHarness, leaks, loginWorks, TestSession } from "@benchwright/testing";
import { createEc2Double, type Ec2Double } from "@benchwright/testing/ec2-double";
import type { ResolvedConfig } from "../../model/resolved-config.js";
import { createCloudProvider, EC2_KINDS, type CloudProviderOptions } from "./index.js";
import { cloudConfig, configProblems, failureOf } from "../../test-support/cloud-outcomes.js";

const ACCESS_ID = "AKIAIOSFODNN7EXAMPLE";
const SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
let SSH_USER = "admin";

// Everything said anywhere in this file, checked for credentials by the last test.

const said: string[] = [];
const secrets = new Set<string>([ACCESS_ID, SECRET_KEY]);

function sections(service: Record<string, unknown> = {}): ResolvedConfig {
  return {
    name: "aws-test",
    serviceType: "vm",
    providerClass: "cloud",
    provider: { class: "cloud", name: "aws-test", driver: "ec2", access_id: ACCESS_ID, secret_key: SECRET_KEY, region: "eu-west-1" },
    service: { image: "debian-12-amd64-*", size: "t3.micro", vm_user: SSH_USER, platform: "debian_12", ...service },
  };
}

const config = (service: Record<string, unknown> = {}) => cloudConfig(sections(service));

const failure = (promise: Promise<unknown>) => failureOf(promise, said);

function ours(inv: ReturnType<Ec2Double["inventory"]>) {
  const mine = <T extends { tags: Record<string, string> }>(xs: T[]) => xs.filter((x) => x.tags["benchwright:managed"] === "true");
  return { instances: mine(inv.instances), keyPairs: mine(inv.keyPairs), securityGroups: mine(inv.securityGroups) };
}

const empty = { instances: [], keyPairs: [], securityGroups: [] };

describe("ec2 provider", () => {
  // A real private sshd stands in for the machines; the doubles hand out its address and key.
  let sshd: SshdHarness;
  let double: Ec2Double;
  const current = new TestSession();
  let options: CloudProviderOptions;

  beforeAll(async () => {
    sshd = await startSshd();
    secrets.add(sshd.privateKey);
    SSH_USER = sshd.username;
  }, 30_000);
  afterAll(() => sshd.stop());

  beforeEach(() => {
    double = createEc2Double({ sshHost: sshd.host, sshPort: sshd.port, privateKey: sshd.privateKey, pollsUntilRunning: 2 });
    current.renew();
    options = {
      outbound: { allowPrivate: true },
      ec2Client: double.client,
      sshPort: sshd.port,
      pollIntervalMs: 2,
      stateTimeoutMs: 2000,
      sshPollIntervalMs: 20,
      sshTimeoutMs: 2000,
    };
  });
  afterEach(() => {
    said.push(...current.logs);
    for (const e of current.ledger.entries) if (typeof e.meta.private_key === "string") secrets.add(e.meta.private_key);
    double.restore();
  });

  const ctx = (_cfg?: unknown) => current.context();

  it("creates a key pair, a security group and an instance, and hands over a machine that answers SSH", async () => {
    const provider = createCloudProvider(config(), options);
    const machines = await provider.ensureMachines(ctx());
    expect(machines).toHaveLength(1);
    const [m] = machines;
    const inv = double.inventory();
    expect(inv.instances).toHaveLength(1);
    expect(m).toMatchObject({
      id: inv.instances[0].id,
      ip: sshd.host,
      privateIp: inv.instances[0].privateIp,
      platform: "debian_12",
      workRoot: "~/.benchwright",
      allowInstall: true,
    });
    expect(m.ssh).toMatchObject({ host: sshd.host, port: sshd.port, username: sshd.username });
    expect(await loginWorks(m.ssh!)).toBe("ok");
    // The newest image of the name pattern.
    expect(inv.instances[0].imageId).toBe("ami-0d1e2b3a4c5f60002");
    // What the cloud says it made, as what and where: its prepare records them among the machine's facts.
    expect(m.placement).toEqual({ image: "ami-0d1e2b3a4c5f60002", instanceType: "t3.micro", zone: "eu-west-1b" });
    expect(inv.instances[0].tags).toMatchObject({ "benchwright:session": current.sessionId, "benchwright:managed": "true" });
    expect(inv.keyPairs[0].tags["benchwright:session"]).toBe(current.sessionId);
    expect(inv.securityGroups[0].tags["benchwright:session"]).toBe(current.sessionId);
    // SSH from anywhere; every protocol and port from the group's own members (a self-referencing rule), and nothing else.
    expect(inv.securityGroups[0].rules).toEqual([`tcp/${sshd.port} from 0.0.0.0/0`, `all from ${inv.securityGroups[0].id}`]);
    const kinds = current.ledger.entries.map((e) => e.kind);
    expect(kinds).toEqual([EC2_KINDS.keyPair, EC2_KINDS.securityGroup, EC2_KINDS.instance]);
    expect(current.ledger.entries[0].meta.private_key).toBe(m.ssh!.privateKey);
  });

  it("records the instance before it waits on it", async () => {
    const provider = createCloudProvider(config(), options);
    let recordedBeforeRunning = false;
    const record = current.ledger.record.bind(current.ledger);
    current.ledger.record = async (kind, id, meta) => {
      if (kind === EC2_KINDS.instance) recordedBeforeRunning = double.inventory().instances.every((i) => i.state === "pending");
      return record(kind, id, meta);
    };
    await provider.ensureMachines(ctx());
    expect(recordedBeforeRunning).toBe(true);
  });

  it("destroys everything it created, and destroying again is harmless", async () => {
    const provider = createCloudProvider(config(), options);
    await provider.ensureMachines(ctx());
    await provider.destroy(ctx());
    expect(ours(double.inventory())).toEqual(empty);
    expect(await current.ledger.live()).toEqual([]);
    await provider.destroy(ctx());
  });

  it("returns the same instance when called twice", async () => {
    const provider = createCloudProvider(config(), options);
    const first = await provider.ensureMachines(ctx());
    const second = await provider.ensureMachines(ctx());
    expect(second[0].id).toBe(first[0].id);
    expect(second[0].ssh!.privateKey).toBe(first[0].ssh!.privateKey);
    expect(double.inventory().instances).toHaveLength(1);
    // A new provider object (as after a server restart) finds it through the ledger too.
    const again = await createCloudProvider(config(), options).ensureMachines(ctx());
    expect(again[0].id).toBe(first[0].id);
    expect(double.calls().filter((c) => c === "RunInstances")).toHaveLength(1);
  });

  it("uses the configured key pair, security group and subnet (asking there for a public address), and leaves them alone", async () => {
    const key = await double.client.send(new CreateKeyPairCommand({ KeyName: "team-key" }));
    const group = await double.client.send(new CreateSecurityGroupCommand({ GroupName: "team-ssh", Description: "ssh" }));
    secrets.add(key.KeyMaterial!);
    const cfg = config({
      key_name: "team-key",
      ssh_private_key: key.KeyMaterial,
      security_group: "team-ssh",
      network: "subnet-0a1b2c3d",
      image: "ami-0a9b8c7d6e5f40003",
    });
    const provider = createCloudProvider(cfg, options);
    const [m] = await provider.ensureMachines(ctx(cfg));
    expect(m.ssh!.privateKey?.trim()).toBe(key.KeyMaterial!.trim());
    expect(double.inventory().instances[0]).toMatchObject({
      keyName: "team-key",
      imageId: "ami-0a9b8c7d6e5f40003",
      subnetId: "subnet-0a1b2c3d",
      groupIds: [group.GroupId],
      publicIp: true,
    });
    expect(current.ledger.entries.map((e) => e.kind)).toEqual([EC2_KINDS.instance]);
    await provider.destroy(ctx(cfg));
    const inv = double.inventory();
    expect(inv.instances).toEqual([]);
    expect(inv.keyPairs.map((k) => k.name)).toEqual(["team-key"]);
    expect(inv.securityGroups.map((g) => g.id)).toEqual([group.GroupId]);
    // The team's group is theirs: not a rule added.
    expect(inv.securityGroups[0].rules).toEqual([]);
  });

  // A failure at each step of the lifecycle, SSH that never answers, and the sweep: see cloud-lifecycle.test.ts.

  it("fails clearly on an unknown image", async () => {
    const cfg = config({ image: "no-such-image" });
    const error = await failure(createCloudProvider(cfg, options).ensureMachines(ctx(cfg)));
    expect(error.code).toBe("provider_failed");
    expect(error.detail).toContain("no-such-image");
    expect(ours(double.inventory())).toEqual(empty);
  });

  it("refuses an unknown driver and lists what is missing", async () => {
    const bad = { ...sections(), provider: { ...sections().provider, driver: "vsphere" } };
    const error = await failure(Promise.resolve().then(() => cloudConfig(bad)));
    expect(error.code).toBe("invalid_configuration");
    expect(error.extras.errors).toEqual([{ path: "/config/provider/driver", message: "is 'vsphere': must be one of: ec2, openstack, gce, azure" }]);
    const missing = { ...sections({ image: "" }), provider: { class: "cloud", driver: "ec2" } };
    expect(configProblems(missing)).toEqual([
      { path: "/config/provider/access_id", message: "is missing: must be a non-empty string" },
      { path: "/config/provider/secret_key", message: "is missing: must be a non-empty string" },
      { path: "/config/provider/region", message: "is missing: must be a non-empty string" },
      { path: "/config/vm/image", message: "is empty: must be a non-empty string" },
    ]);
    expect(configProblems(sections({ key_name: "k" }))).toEqual([
      { path: "/config/vm/ssh_private_key", message: "is missing: must be given with key_name, to log in with that key pair" },
    ]);
    expect(configProblems(sections())).toEqual([]);
  });

  it("never puts a credential in an error or a log line", async () => {
    // One more failure whose cause echoes the credentials, as a careless service might.
    double.failNext("RunInstances", Object.assign(new Error(`AuthFailure for ${ACCESS_ID}/${SECRET_KEY}`), { name: "AuthFailure" }));
    const error = await failure(createCloudProvider(config(), options).ensureMachines(ctx()));
    expect(error.detail).toContain("AuthFailure");
    said.push(...current.logs);
    for (const e of current.ledger.entries) if (typeof e.meta.private_key === "string") secrets.add(e.meta.private_key);

    expect(said.length).toBeGreaterThan(20);
    expect(leaks(said, secrets)).toEqual([]);
  });
});
