import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  startCountingListener,
  startGceDouble,
  type GceDouble,
  startSshd,
  type SshdHarness,
  createMemoryLedger,
  loginWorks,
  testContext,
  type MemoryLedger,
} from "@benchwright/testing";
import { cloudConfig, configProblems, failureOf } from "../../test-support/cloud-outcomes.js";
import type { ResolvedConfig } from "../../model/resolved-config.js";
import { publicKeyOf } from "./cloud-provider.js";
import { GCE_KINDS } from "./gce-kinds.js";
import { createCloudProvider } from "./index.js";

// What is particular to GCE; the lifecycle (each step failing, abort, sweep) is in
// cloud-lifecycle.test.ts. Google's real Compute client talks REST to a local HTTP double.

describe("gce driver", { timeout: 30_000 }, () => {
  let sshd: SshdHarness;
  let double: GceDouble;
  let ledger: MemoryLedger;
  const logs: string[] = [];
  const sessionId = randomUUID();

  const sections = (service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}): ResolvedConfig => ({
    name: "gce-test",
    serviceType: "vm",
    providerClass: "cloud",
    provider: {
      class: "cloud",
      driver: "gce",
      access_id: "sa@p.iam.gserviceaccount.com",
      secret_key: "k",
      project: double.project,
      region: double.zone,
      ...provider,
    },
    service: { image: "projects/debian-cloud/global/images/family/debian-12", size: "e2-small", vm_user: sshd.username, ...service },
  });
  const options = () => ({
    outbound: { allowPrivate: true },
    gceClient: double.clientOptions,
    sshPort: sshd.port,
    pollIntervalMs: 2,
    stateTimeoutMs: 2000,
    sshPollIntervalMs: 20,
    sshTimeoutMs: 2000,
  });
  const config = (service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}) => cloudConfig(sections(service, provider));
  const ctx = (_cfg?: unknown) => testContext(sessionId, logs, ledger);

  beforeAll(async () => {
    sshd = await startSshd();
    await import("./gce-driver.js");
  }, 60_000);
  afterAll(() => sshd?.stop());
  beforeEach(async () => {
    double = await startGceDouble({ sshHost: sshd.host, guestAgent: (key) => sshd.authorize(key) });
    ledger = createMemoryLedger();
  });
  afterEach(() => double.stop());

  it("makes a key, a firewall for SSH and one for the session's machines tagged onto a labelled instance with an external address, and the key in its metadata", async () => {
    const cfg = config();
    const [m] = await createCloudProvider(cfg, options()).ensureMachines(ctx(cfg));
    // Both firewalls recorded before the instance was asked for.
    expect(ledger.entries.map((e) => e.kind)).toEqual([GCE_KINDS.key, GCE_KINDS.firewall, GCE_KINDS.firewall, GCE_KINDS.instance]);
    const [, ssh, peers] = ledger.entries;
    expect(ssh.meta.peers).toBeUndefined();
    expect(peers.meta.peers).toBe(true);
    const { instances, firewalls } = double.inventory();
    const described = { description: `benchwright:session=${sessionId} benchwright:managed=true`, network: "global/networks/default" };
    // Sources and `allowed` go together in a firewall: SSH from anywhere, everything only from the session's tag.
    expect(firewalls).toEqual([
      { name: ssh.id, ...described, allowed: [`tcp/${sshd.port}`], sourceRanges: ["0.0.0.0/0"], sourceTags: [], targetTags: [ssh.id] },
      { name: peers.id, ...described, allowed: ["all"], sourceRanges: [], sourceTags: [ssh.id], targetTags: [ssh.id] },
    ]);
    expect(instances).toEqual([
      {
        name: m.id,
        status: "RUNNING",
        labels: { "benchwright-session": sessionId, "benchwright-managed": "true" },
        tags: [ssh.id],
        sshKeys: `${sshd.username}:${await publicKeyOf(m.ssh!.privateKey!)} ${sshd.username}`,
        externalIp: true,
        networkIP: m.privateIp,
      },
    ]);
    expect(m.privateIp).toMatch(/^10\.128\.0\.\d+$/);
    expect(m.ip).toBe(sshd.host);
    // The key made here is the one the machine takes (the double's guest agent authorized it).
    expect(ledger.entries[0].meta.private_key).toBe(m.ssh!.privateKey);
    expect(await loginWorks(m.ssh!)).toBe("ok");
  });

  it("deletes both firewalls with the session, and a sweep finds both when the session is gone", async () => {
    const cfg = config();
    const provider = createCloudProvider(cfg, options());
    await provider.ensureMachines(ctx(cfg));
    expect(double.inventory().firewalls).toHaveLength(2);
    await provider.destroy(ctx(cfg));
    expect(double.inventory()).toEqual({ instances: [], firewalls: [] });
    expect(await ledger.live()).toEqual([]);

    ledger = createMemoryLedger();
    await provider.ensureMachines(ctx(cfg));
    const firewalls = ledger.entries.filter((e) => e.kind === GCE_KINDS.firewall).map((e) => e.id);
    const swept = await provider.sweep!({ isLive: async () => false, dryRun: false, log: (line) => logs.push(line) });
    expect(
      swept
        .filter((r) => r.kind === GCE_KINDS.firewall)
        .map((r) => r.id)
        .sort(),
    ).toEqual(firewalls.sort());
    expect(swept.every((r) => r.destroyed && r.session_id === sessionId)).toBe(true);
    expect(double.inventory()).toEqual({ instances: [], firewalls: [] });
  });

  it("makes the firewall for the session's machines when a session made before it has only the SSH one", async () => {
    const cfg = config();
    const provider = createCloudProvider(cfg, options());
    await provider.ensureMachines(ctx(cfg));
    const peers = ledger.entries.find((e) => e.meta.peers === true)!;
    const instance = ledger.entries.find((e) => e.kind === GCE_KINDS.instance)!;
    // As if the earlier attempt had stopped before it: the peers firewall and the machine gone.
    const gone = [peers.id, instance.id];
    await provider.destroy({
      ...ctx(cfg),
      resources: { ...ledger, live: async () => (await ledger.live()).filter((e) => gone.includes(e.id)) },
    });
    expect(double.inventory().firewalls.map((f) => f.name)).not.toContain(peers.id);
    await provider.ensureMachines(ctx(cfg));
    const kinds = (await ledger.live()).map((e) => [e.kind, e.meta.peers === true]);
    expect(kinds.filter(([k, p]) => k === GCE_KINDS.firewall && p)).toHaveLength(1);
    expect(double.inventory().firewalls.map((f) => f.allowed)).toEqual([[`tcp/${sshd.port}`], ["all"]]);
  });

  it("puts the configured network tags on the instance and makes no firewall", async () => {
    const cfg = config({ security_group: "ssh-in, bench" });
    await createCloudProvider(cfg, options()).ensureMachines(ctx(cfg));
    expect(double.inventory().firewalls).toEqual([]);
    expect(double.inventory().instances[0].tags).toEqual(["ssh-in", "bench"]);
  });

  it("fails clearly on an image it does not have, and leaves nothing", async () => {
    const cfg = config({ image: "no-such-image" });
    const error = await failureOf(createCloudProvider(cfg, options()).ensureMachines(ctx(cfg)), logs);
    expect(error.detail).toContain(`projects/${double.project}/global/images/no-such-image`);
    expect(double.inventory()).toEqual({ instances: [], firewalls: [] });
  });

  it("calls the Compute API only through the outbound guard: a loopback endpoint gets no connection without the setting", async () => {
    const listener = await startCountingListener();
    try {
      const port = listener.port;
      const cfg = config();
      const { outbound: _allowed, ...refusing } = options();
      const error = await failureOf(createCloudProvider(cfg, { ...refusing, gceClient: { ...double.clientOptions, port } }).ensureMachines(ctx(cfg)), logs);
      expect(error.detail).toMatch(/127\.0\.0\.1 is a loopback address, which the server does not call unless BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS is set/);
      expect(listener.connections).toBe(0);
    } finally {
      await listener.stop();
    }
  });

  it("needs the project and the zone", () => {
    expect(configProblems(sections({}, { project: "", region: undefined }))).toEqual([
      { path: "/config/provider/region", message: "is missing: must be a non-empty string" },
      { path: "/config/provider/project", message: "is empty: must be a non-empty string" },
    ]);
  });
});
