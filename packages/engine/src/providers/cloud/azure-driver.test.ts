import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startAzureDouble, type AzureDouble, startCountingListener, startSshd, type SshdHarness, TestSession } from "@benchwright/testing";
import { cloudConfig, configProblems, failureOf } from "../../test-support/cloud-outcomes.js";
import type { ResolvedConfig } from "../../model/resolved-config.js";
import { AZURE_KINDS } from "./azure-kinds.js";
import { publicKeyOf } from "./cloud-provider.js";
import { createCloudProvider } from "./index.js";

// What is particular to Azure; the lifecycle (each step failing, abort, sweep) is in
// cloud-lifecycle.test.ts. Azure's real clients (identity, compute, network) talk to a local
// TLS double of Entra and Resource Manager.

let sshd: SshdHarness;
let double: AzureDouble;
const current = new TestSession();

/** The sections of an Azure configuration at the double, with these keys changed. */
function sections(service: Record<string, unknown> = {}, provider: Record<string, unknown> = {}): ResolvedConfig {
  const vm = { image: "Debian:debian-12:12-gen2:latest", size: "Standard_B2s", vm_user: sshd.username, network: double.subnet };
  return {
    name: "azure-test",
    serviceType: "vm",
    providerClass: "cloud",
    provider: { class: "cloud", driver: "azure", ...double.provider, ...provider },
    service: { ...vm, ...service },
  };
}
const config = (service?: Record<string, unknown>, provider?: Record<string, unknown>) => cloudConfig(sections(service, provider));
/** The lifecycle's waits, short: the double answers at once. */
const FAST = { pollIntervalMs: 2, stateTimeoutMs: 2000, sshTimeoutMs: 2000 };
const options = () => ({ outbound: { allowPrivate: true }, azureCa: double.ca, sshPort: sshd.port, ...FAST });
const ctx = () => current.context();
const empty = { vms: [], nics: [], publicIps: [], securityGroups: [], applicationSecurityGroups: [] };

beforeAll(async () => {
  sshd = await startSshd();
  await import("./azure-driver.js");
}, 60_000);
afterAll(() => sshd?.stop());

describe("azure driver", { timeout: 30_000 }, () => {
  beforeEach(async () => {
    double = await startAzureDouble({ sshHost: sshd.host, guestAgent: (key) => sshd.authorize(key) });
    current.renew();
  });
  afterEach(() => double.stop());

  it("records each resource before asking for it, tags them all, and puts the key, the size and the image on a VM whose disk goes with it", async () => {
    const cfg = config();
    const [m] = await createCloudProvider(cfg, options()).ensureMachines(ctx());
    expect(current.ledger.entries.map((e) => e.kind)).toEqual([
      AZURE_KINDS.key,
      AZURE_KINDS.securityGroup,
      AZURE_KINDS.securityGroup,
      AZURE_KINDS.publicIp,
      AZURE_KINDS.nic,
      AZURE_KINDS.vm,
    ]);
    const [key, nsg, asg, ip, nic, vm] = current.ledger.entries;
    expect(nsg.meta.peers).toBeUndefined();
    expect(asg.meta.peers).toBe(true);
    const inv = double.inventory();
    const tags = { "benchwright:session": current.sessionId, "benchwright:managed": "true" };
    for (const r of [...inv.vms, ...inv.nics, ...inv.publicIps, ...inv.securityGroups, ...inv.applicationSecurityGroups]) {
      expect(r.tags).toEqual(tags);
      expect(r.provisioningState).toBe("Succeeded");
    }
    expect(inv.vms).toHaveLength(1);
    expect(inv.vms[0]).toMatchObject({ id: vm.id, size: "Standard_B2s", adminUsername: sshd.username });
    // The key made for the session (sealed in the ledger) is the one on the VM.
    expect(inv.vms[0].publicKeys).toEqual([await publicKeyOf(key.meta.private_key as string)]);
    expect(inv.nics).toEqual([
      expect.objectContaining({
        id: nic.id,
        vmId: vm.id,
        securityGroupId: nsg.id.toLowerCase(),
        publicIpId: ip.id.toLowerCase(),
        applicationSecurityGroupIds: [asg.id.toLowerCase()],
      }),
    ]);
    expect(m).toMatchObject({ id: vm.id, ip: sshd.host, privateIp: inv.nics[0].privateIp });
    // SSH from anywhere, everything from the session's machines, the rest of the network shut out.
    expect(
      inv.securityGroups[0].rules.map(({ name, access, priority, protocol, sourceAddressPrefix, destinationPortRange }) => ({
        name,
        access,
        priority,
        protocol,
        sourceAddressPrefix,
        destinationPortRange,
      })),
    ).toEqual([
      { name: "close-network", access: "Deny", priority: 4000, protocol: "*", sourceAddressPrefix: "VirtualNetwork", destinationPortRange: "*" },
      { name: "ssh", access: "Allow", priority: 100, protocol: "Tcp", sourceAddressPrefix: "0.0.0.0/0", destinationPortRange: String(sshd.port) },
      { name: "session-machines", access: "Allow", priority: 110, protocol: "*", sourceAddressPrefix: undefined, destinationPortRange: "*" },
    ]);
    expect(inv.securityGroups[0].rules[2].sourceApplicationSecurityGroups).toEqual([asg.id.toLowerCase()]);

    await createCloudProvider(cfg, options()).destroy(ctx());
    expect(double.inventory()).toEqual(empty);
    expect(current.ledger.entries.every((e) => e.destroyed)).toBe(true);
  });

  it("puts the VM behind a configured network security group, found by name in the resource group, and makes none", async () => {
    double.seedSecurityGroup("team-ssh");
    const cfg = config({ security_group: "team-ssh" });
    await createCloudProvider(cfg, options()).ensureMachines(ctx());
    const inv = double.inventory();
    expect(inv.securityGroups.map((g) => g.name)).toEqual(["team-ssh"]);
    expect(inv.applicationSecurityGroups).toEqual([]);
    expect(inv.nics[0].securityGroupId).toBe(inv.securityGroups[0].id.toLowerCase());
    expect(inv.nics[0].applicationSecurityGroupIds).toEqual([]);
    await createCloudProvider(cfg, options()).destroy(ctx());
    expect(double.inventory().securityGroups.map((g) => g.name)).toEqual(["team-ssh"]);
  });

  it("fails clearly on an image Azure does not have, and leaves nothing", async () => {
    const cfg = config({ image: "Debian:debian-9:9:latest" });
    const error = await failureOf(createCloudProvider(cfg, options()).ensureMachines(ctx()), current.logs);
    expect(error.detail).toMatch(/launching the machine failed: PlatformImageNotFound: .*Debian:debian-9:9:latest/);
    expect(double.inventory()).toEqual(empty);
  });

  it("fails on a wrong client secret without saying it, and leaves nothing", async () => {
    const cfg = config({}, { secret_key: "not-the-secret" });
    const error = await failureOf(createCloudProvider(cfg, options()).ensureMachines(ctx()), current.logs);
    expect(error.code).toBe("provider_failed");
    expect(error.detail).toContain("invalid_client");
    expect(error.detail).not.toContain("not-the-secret");
    expect(double.tokens()).toEqual([]);
  });

  it("calls Entra and Resource Manager only through the outbound guard: a loopback authority gets no connection without the setting", async () => {
    const listener = await startCountingListener();
    try {
      const local = `https://127.0.0.1:${listener.port}`;
      const cfg = config({}, { auth_url: local, endpoint: local });
      const { outbound: _allowed, ...refusing } = options();
      const error = await failureOf(createCloudProvider(cfg, refusing).ensureMachines(ctx()), current.logs);
      expect(error.detail).toMatch(/127\.0\.0\.1 is a loopback address, which the server does not call unless BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS is set/);
      expect(listener.connections).toBe(0);
    } finally {
      await listener.stop();
    }
  });

  it("needs the tenant, subscription, resource group, location, a subnet and an image it can read, and speaks TLS only", () => {
    expect(configProblems(sections({ network: undefined }, { tenant: undefined, subscription_id: "", resource_group: undefined, region: undefined }))).toEqual(
      expect.arrayContaining([
        { path: "/config/provider/tenant", message: "is missing: must be a non-empty string" },
        { path: "/config/provider/subscription_id", message: "is empty: must be a non-empty string" },
        { path: "/config/provider/resource_group", message: "is missing: must be a non-empty string" },
        { path: "/config/provider/region", message: "is missing: must be a non-empty string" },
        expect.objectContaining({ path: "/config/vm/network" }),
      ]),
    );
    expect(configProblems(sections({ image: "debian-12", network: "bench-vnet" }))).toEqual([
      { path: "/config/vm/network", message: "is not a subnet: must name the subnet machines join: <vnet>/<subnet> in the resource group, or its resource id" },
      { path: "/config/vm/image", message: "is not an image: must be a URN publisher:offer:sku:version, or an image's resource id" },
    ]);
    const subnetId = `/subscriptions/${double.subscriptionId}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/hub/subnets/bench`;
    const galleryImage = `/subscriptions/${double.subscriptionId}/resourceGroups/img/providers/Microsoft.Compute/galleries/g/images/debian/versions/1.0.0`;
    expect(configProblems(sections({ image: galleryImage, network: subnetId }))).toEqual([]);
    expect(configProblems(sections({}, { auth_url: "http://login.example", endpoint: "http://arm.example" }))).toEqual([
      { path: "/config/provider/auth_url", message: "is not an https URL: must start with https://" },
      { path: "/config/provider/endpoint", message: "is not an https URL: must start with https://" },
    ]);
  });
});
