import { BenchwrightError } from "../../errors.js";
import type { Scrubber } from "../../secrets/scrub.js";
import type { MachinePlacement } from "../provider.js";
import { sessionFromName, TAG_MANAGED, TAG_SESSION, type CloudProviderOptions, type CloudSettings } from "./cloud-settings.js";
import type { CloudDriver, LaunchSpec, MachineView, TaggedResource } from "./cloud-driver.js";
import { OpenStackClient, type NovaServer } from "./openstack-client.js";

export const OPENSTACK_KINDS = {
  server: "openstack:server",
  keyPair: "openstack:key_pair",
  securityGroup: "openstack:security_group",
  floatingIp: "openstack:floating_ip",
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Addresses nobody outside the cloud can reach: they call for a floating IP. */
function isPrivate(addr: string): boolean {
  if (addr.includes(":")) return /^(fc|fd|fe80|::1$)/i.test(addr);
  const [a, b] = addr.split(".").map(Number);
  return (
    a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127)
  );
}

/**
 * `address`: a floating IP, else a public fixed one, else (told not to take a floating IP) any
 * fixed one. `privateAddress`: the first fixed one, its port's fixed IP (as Nova lists it).
 */
function addressesOf(server: NovaServer, noFloatingIp: boolean): { address?: string; privateAddress?: string } {
  const v4 = Object.values(server.addresses ?? {})
    .flat()
    .filter((a) => a.version !== 6 && !a.addr.includes(":"));
  const fixed = v4.filter((a) => a["OS-EXT-IPS:type"] !== "floating");
  const address =
    v4.find((a) => a["OS-EXT-IPS:type"] === "floating")?.addr ?? fixed.find((a) => !isPrivate(a.addr))?.addr ?? (noFloatingIp ? fixed[0]?.addr : undefined);
  return { address, privateAddress: fixed[0]?.addr };
}

/** Neutron floating IPs and security groups carry no tags we can rely on: their description says whose they are. */
function description(sessionId: string): string {
  return `${TAG_SESSION}=${sessionId} ${TAG_MANAGED}=true`;
}

function sessionOfDescription(text: string | undefined): string | null | undefined {
  if (!text?.includes(`${TAG_MANAGED}=true`)) return undefined;
  return /benchwright:session=(\S+)/.exec(text)?.[1] ?? null;
}

/** OpenStack: Nova key pairs and servers (with our metadata), Neutron security groups and floating IPs. */
export class OpenStackDriver implements CloudDriver {
  readonly name = "openstack";
  readonly kinds = {
    machine: OPENSTACK_KINDS.server,
    key: OPENSTACK_KINDS.keyPair,
    access: OPENSTACK_KINDS.securityGroup,
    address: OPENSTACK_KINDS.floatingIp,
  };
  private readonly client: OpenStackClient;

  constructor(
    private readonly settings: CloudSettings<"openstack">,
    options: CloudProviderOptions,
    scrubber: Scrubber,
  ) {
    const s = settings;
    this.client = new OpenStackClient(
      { authUrl: s.authUrl, username: s.accessId, password: s.secretKey, project: s.tenant, domain: s.domain, region: s.region },
      { outbound: options.outbound, onToken: (token) => scrubber.add(token) },
    );
  }

  async createKey(spec: { name: string; publicKey?: string }) {
    const made = await this.client.createKeypair(spec.name, spec.publicKey);
    return { id: made.name, privateKey: made.private_key };
  }

  createAccess(spec: { name: string; sessionId: string }): Promise<string> {
    return this.client.createSecurityGroup(spec.name, description(spec.sessionId));
  }

  /** SSH from anywhere; everything from the group's own members (remote_group_id: the group itself). */
  async openAccess(id: string, sshPort: number): Promise<void> {
    await this.client.allowTcpIn(id, sshPort);
    await this.client.allowGroupIn(id, id);
  }

  async launch(spec: LaunchSpec): Promise<string> {
    const s = this.settings;
    const flavor = await this.client.findFlavor(s.size);
    if (!flavor) throw new BenchwrightError("provider_failed", `openstack: no flavor named '${s.size}'`);
    const image = await this.client.findImage(s.image);
    if (!image) throw new BenchwrightError("provider_failed", `openstack: no image named '${s.image}'`);
    let networkId: string | undefined;
    if (s.network) {
      networkId = UUID.test(s.network) ? s.network : await this.client.findNetwork(s.network);
      if (!networkId) throw new BenchwrightError("provider_failed", `openstack: no network named '${s.network}'`);
    }
    // Nova takes a group's name or id here.
    const groups = "created" in spec.access ? [spec.access.created] : spec.access.configured.split(",").map((g) => g.trim());
    return this.client.createServer({
      name: spec.name,
      imageRef: image.id,
      flavorRef: flavor.id,
      key_name: spec.keyName,
      metadata: { [TAG_SESSION]: spec.sessionId, [TAG_MANAGED]: "true" },
      networks: networkId ? [{ uuid: networkId }] : undefined,
      security_groups: groups.map((name) => ({ name })),
    });
  }

  async describe(id: string): Promise<MachineView> {
    const server = await this.client.getServer(id);
    if (!server || server.status === "DELETED") return { state: "gone" };
    if (server.status === "BUILD") return { state: "pending" };
    if (server.status === "ACTIVE") return { state: "running", ...addressesOf(server, this.settings.noFloatingIp), placement: placementOf(server) };
    const fault = server.fault?.message ? ` (${server.fault.message})` : "";
    return { state: "failed", reason: `went into ${server.status}${fault}` };
  }

  async createAddress(serverId: string, sessionId: string): Promise<{ id: string; address: string }> {
    const pool = this.settings.floatingIpPool;
    const networkId = await this.client.externalNetwork(pool);
    if (!networkId) throw new BenchwrightError("provider_failed", `openstack: no external network${pool ? ` named '${pool}'` : ""} for a floating IP`);
    const portId = await this.client.serverPort(serverId);
    if (!portId) throw new BenchwrightError("provider_failed", `openstack: server ${serverId} has no network port`);
    const fip = await this.client.createFloatingIp(networkId, portId, description(sessionId));
    return { id: fip.id, address: fip.floating_ip_address };
  }

  async destroy(kind: string, id: string): Promise<"gone" | "busy"> {
    if (kind === OPENSTACK_KINDS.securityGroup) return this.client.deleteSecurityGroup(id);
    if (kind === OPENSTACK_KINDS.server) await this.client.deleteServer(id);
    else if (kind === OPENSTACK_KINDS.floatingIp) await this.client.deleteFloatingIp(id);
    else if (kind === OPENSTACK_KINDS.keyPair) await this.client.deleteKeypair(id);
    return "gone";
  }

  async listTagged(): Promise<TaggedResource[]> {
    const found: TaggedResource[] = [];
    for (const fip of await this.client.listFloatingIps()) {
      const session = sessionOfDescription(fip.description);
      if (session !== undefined) found.push({ kind: OPENSTACK_KINDS.floatingIp, id: fip.id, session });
    }
    for (const server of await this.client.listServers()) {
      if (server.metadata?.[TAG_MANAGED] === "true") found.push({ kind: OPENSTACK_KINDS.server, id: server.id, session: server.metadata[TAG_SESSION] ?? null });
    }
    for (const group of await this.client.listSecurityGroups()) {
      const session = sessionOfDescription(group.description);
      if (session !== undefined) found.push({ kind: OPENSTACK_KINDS.securityGroup, id: group.id, session });
    }
    // Nova key pairs carry no metadata: their name holds the session id.
    for (const name of await this.client.listKeypairs()) {
      const session = sessionFromName(name);
      if (session !== null) found.push({ kind: OPENSTACK_KINDS.keyPair, id: name, session });
    }
    return found;
  }
}

/** The image, flavor and availability zone Nova reports for a server (each where it reports one). */
function placementOf(server: NovaServer): MachinePlacement {
  return {
    image: typeof server.image === "object" ? server.image.id || undefined : undefined,
    instanceType: server.flavor?.original_name ?? server.flavor?.id,
    zone: server["OS-EXT-AZ:availability_zone"] || undefined,
  };
}
