import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGceDouble, type GceDouble } from "../../testing/gce-double.js";
import { startSshd, type SshdHarness } from "../../testing/sshd.js";
import type { ResolvedConfig } from "../provider.js";
import { publicKeyOf } from "./cloud-provider.js";
import { GCE_KINDS } from "./gce-driver.js";
import { createCloudProvider } from "./index.js";
import { cloudConfig, configProblems, createMemoryLedger, failureOf, loginWorks, testContext, type MemoryLedger } from "./testing-ledger.js";

// What is particular to GCE; the lifecycle (each step failing, abort, sweep) is in
// cloud-lifecycle.test.ts. Google's real Compute client talks REST to a local HTTP double.

describe("gce driver", () => {
  let sshd: SshdHarness;
  let double: GceDouble;
  let ledger: MemoryLedger;
  const logs: string[] = [];
  const sessionId = randomUUID();

  const sections = (service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}): ResolvedConfig => ({
    name: "gce-test",
    serviceType: "vm",
    providerClass: "cloud",
    provider: { class: "cloud", driver: "gce", access_id: "sa@p.iam.gserviceaccount.com", secret_key: "k", project: double.project, region: double.zone, ...provider },
    service: { image: "projects/debian-cloud/global/images/family/debian-12", size: "e2-small", vm_user: sshd.username, ...service },
  });
  const options = () => ({ gceClient: double.clientOptions, sshPort: sshd.port, pollIntervalMs: 2, stateTimeoutMs: 2000, sshPollIntervalMs: 20, sshTimeoutMs: 2000 });
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

  it("makes a key, a firewall for SSH tagged onto a labelled instance with an external address, and the key in its metadata", async () => {
    const cfg = config();
    const [m] = await createCloudProvider(cfg, options()).ensureMachines(ctx(cfg));
    expect(ledger.entries.map((e) => e.kind)).toEqual([GCE_KINDS.key, GCE_KINDS.firewall, GCE_KINDS.instance]);
    const { instances, firewalls } = double.inventory();
    expect(firewalls).toEqual([{ name: ledger.entries[1].id, description: `benchwright:session=${sessionId} benchwright:managed=true`, ports: [`tcp/${sshd.port}`], targetTags: [ledger.entries[1].id] }]);
    expect(instances).toEqual([
      {
        name: m.id,
        status: "RUNNING",
        labels: { "benchwright-session": sessionId, "benchwright-managed": "true" },
        tags: [firewalls[0].name],
        sshKeys: `${sshd.username}:${publicKeyOf(m.ssh!.privateKey!)} ${sshd.username}`,
        externalIp: true,
      },
    ]);
    // The key made here is the one the machine takes (the double's guest agent authorized it).
    expect(ledger.entries[0].meta.private_key).toBe(m.ssh!.privateKey);
    expect(await loginWorks(m.ssh!)).toBe("ok");
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

  it("needs the project and the zone", () => {
    expect(configProblems(sections({}, { project: "", region: undefined }))).toEqual([
      { path: "/config/provider/region", message: "is missing: must be a non-empty string" },
      { path: "/config/provider/project", message: "is empty: must be a non-empty string" },
    ]);
  });
});
