import type { ImageReference } from "@azure/arm-compute";
import type { SecurityRule } from "@azure/arm-network";
import { BenchwrightError } from "../../errors.js";
import { type AzureClients, createAzureClients, statusOf } from "./azure-clients.js";
import { AZURE_KINDS } from "./azure-kinds.js";
import type { CloudDriver, LaunchSpec, MachineView, TaggedResource } from "./cloud-driver.js";
import { TAG_MANAGED, TAG_SESSION, type CloudProviderOptions, type CloudSettings } from "./cloud-settings.js";
import { localKey } from "./local-key.js";

/** The Resource Manager types the driver makes, by the part each plays. */
const TYPES = {
  vm: "Microsoft.Compute/virtualMachines",
  nsg: "Microsoft.Network/networkSecurityGroups",
  asg: "Microsoft.Network/applicationSecurityGroups",
  nic: "Microsoft.Network/networkInterfaces",
  publicIp: "Microsoft.Network/publicIPAddresses",
} as const;

/** `/subscriptions/…/resourceGroups/…/providers/<namespace>/<type>/<name>`: the type and the name. */
function parseId(id: string): { type: string; name: string } {
  const m = /\/providers\/([^/]+\/[^/]+)\/([^/]+)$/i.exec(id);
  if (!m) throw new BenchwrightError("internal", `not an Azure resource id: ${id}`);
  return { type: m[1], name: m[2] };
}

/** Rule priorities in the session's network security group: lower goes first. */
const PRIORITY = { ssh: 100, peers: 110, closeNetwork: 4000 };

/** Codes Azure answers a deletion with while something still uses the resource. */
const IN_USE = /InUse|CannotBeDeleted/;

/**
 * Microsoft Azure, through Resource Manager: in the configured resource group, a network
 * security group letting SSH in and the session's machines (an application security group
 * they join) reach each other, and per machine a public address, a network interface in the
 * configured subnet and the VM with the session's public key, each tagged with the session.
 * The VM takes its OS disk with it when it goes.
 */
export class AzureDriver implements CloudDriver {
  readonly name = "azure";
  // A machine's interface holds its address: the interface goes first.
  readonly kinds = { machine: AZURE_KINDS.vm, key: AZURE_KINDS.key, access: AZURE_KINDS.securityGroup, parts: [AZURE_KINDS.nic, AZURE_KINDS.publicIp] };
  private readonly clients: AzureClients;
  private readonly group: string;
  /** Every long-running operation is polled at the lifecycle's pace. */
  private readonly lro: { updateIntervalInMs: number };

  constructor(
    private readonly settings: CloudSettings<"azure">,
    options: CloudProviderOptions,
  ) {
    this.clients = createAzureClients(settings, options);
    this.group = settings.resourceGroup;
    this.lro = { updateIntervalInMs: settings.pollIntervalMs };
  }

  private id(type: string, name: string): string {
    return `/subscriptions/${this.settings.subscriptionId}/resourceGroups/${this.group}/providers/${type}/${name}`;
  }

  private tags(sessionId: string): Record<string, string> {
    return { [TAG_SESSION]: sessionId, [TAG_MANAGED]: "true" };
  }

  /** A call whose failure passes through the clients' `failure` (what an answer may say). */
  private async api<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw await this.clients.failure(error);
    }
  }

  /** Nothing to make at Azure: the public key goes on the VM at launch. */
  async createKey(spec: { name: string; publicKey?: string }) {
    return localKey(spec);
  }

  /**
   * The session's network security group. Azure's default rules let the whole virtual network
   * in: a rule shuts it out, so that only the session's machines (see createPeerAccess) get in.
   */
  async createAccess(spec: { name: string; sessionId: string }): Promise<string> {
    const closeNetwork = rule(PRIORITY.closeNetwork, "Deny", { sourceAddressPrefix: "VirtualNetwork" });
    const id = this.id(TYPES.nsg, spec.name);
    await this.createOrUndo(id, () =>
      this.clients.network.networkSecurityGroups.beginCreateOrUpdateAndWait(
        this.group,
        spec.name,
        { location: this.settings.region, tags: this.tags(spec.sessionId), securityRules: [{ name: "close-network", ...closeNetwork }] },
        this.lro,
      ),
    );
    return id;
  }

  /** SSH from anywhere; a PUT of the same rule changes nothing. */
  async openAccess(id: string, sshPort: number): Promise<void> {
    const ssh = rule(PRIORITY.ssh, "Allow", { protocol: "Tcp", sourceAddressPrefix: "0.0.0.0/0", destinationPortRange: String(sshPort) });
    await this.api(() => this.clients.network.securityRules.beginCreateOrUpdateAndWait(this.group, parseId(id).name, "ssh", ssh, this.lro));
  }

  /**
   * The application security group the session's interfaces join (named after the network
   * security group, so that launch finds it), and the rule letting it reach itself on every
   * protocol and port.
   */
  async createPeerAccess(spec: { sessionId: string; access: string }): Promise<string> {
    const { network } = this.clients;
    const nsg = parseId(spec.access).name;
    const asg = this.id(TYPES.asg, peersName(nsg));
    const peers = rule(PRIORITY.peers, "Allow", { sourceApplicationSecurityGroups: [{ id: asg }], destinationApplicationSecurityGroups: [{ id: asg }] });
    await this.createOrUndo(asg, async () => {
      await network.applicationSecurityGroups.beginCreateOrUpdateAndWait(
        this.group,
        peersName(nsg),
        { location: this.settings.region, tags: this.tags(spec.sessionId) },
        this.lro,
      );
      await network.securityRules.beginCreateOrUpdateAndWait(this.group, nsg, "session-machines", peers, this.lro);
    });
    return asg;
  }

  /**
   * Makes the resource `id` (and whatever goes with it) and waits for it; on a failure after
   * Azure accepted it, deletes it (the lifecycle records nothing of a call that failed) and fails.
   */
  private async createOrUndo(id: string, create: () => Promise<unknown>): Promise<void> {
    try {
      await this.api(create);
    } catch (error) {
      await this.destroyId(id).catch(() => undefined);
      throw error;
    }
  }

  async launch(spec: LaunchSpec): Promise<string> {
    const s = this.settings;
    const { network } = this.clients;
    const base = { location: s.region, tags: this.tags(spec.sessionId) };
    const ipName = `${spec.name}-ip`;
    await spec.record(AZURE_KINDS.publicIp, this.id(TYPES.publicIp, ipName));
    const ip = await this.api(() =>
      network.publicIPAddresses.beginCreateOrUpdateAndWait(
        this.group,
        ipName,
        { ...base, sku: { name: "Standard" }, publicIPAllocationMethod: "Static" },
        this.lro,
      ),
    );
    const nicName = `${spec.name}-nic`;
    await spec.record(AZURE_KINDS.nic, this.id(TYPES.nic, nicName));
    const nsg = "created" in spec.access ? spec.access.created : this.configuredGroup(spec.access.configured);
    const peers = "created" in spec.access ? [{ id: this.id(TYPES.asg, peersName(parseId(nsg).name)) }] : undefined;
    const nic = await this.api(() =>
      network.networkInterfaces.beginCreateOrUpdateAndWait(
        this.group,
        nicName,
        {
          ...base,
          networkSecurityGroup: { id: nsg },
          ipConfigurations: [{ name: "primary", subnet: { id: this.subnet() }, publicIPAddress: { id: ip.id }, applicationSecurityGroups: peers }],
        },
        this.lro,
      ),
    );
    const vm = this.clients.compute.virtualMachines.createOrUpdate(
      this.group,
      spec.name,
      {
        ...base,
        hardwareProfile: { vmSize: s.size },
        storageProfile: { imageReference: imageOf(s.image), osDisk: { createOption: "FromImage", deleteOption: "Delete" } },
        osProfile: {
          computerName: spec.name.slice(0, 64),
          adminUsername: s.vmUser,
          linuxConfiguration: {
            disablePasswordAuthentication: true,
            ssh: { publicKeys: [{ path: `/home/${s.vmUser}/.ssh/authorized_keys`, keyData: spec.publicKey }] },
          },
        },
        networkProfile: { networkInterfaces: [{ id: nic.id, primary: true }] },
      },
      this.lro,
    );
    // Asked for, not waited for: describe follows it up.
    await this.api(() => vm.submitted());
    return this.id(TYPES.vm, spec.name);
  }

  /** The configured network security group: a resource id, or a name in the resource group. */
  private configuredGroup(configured: string): string {
    return configured.startsWith("/") ? configured : this.id(TYPES.nsg, configured);
  }

  /** The configured subnet (its form checked by the configuration's parser): a resource id, or `<vnet>/<subnet>` in the resource group. */
  private subnet(): string {
    const n = this.settings.network ?? "";
    if (n.startsWith("/")) return n;
    const [vnet, subnet] = n.split("/");
    return `${this.id("Microsoft.Network/virtualNetworks", vnet)}/subnets/${subnet}`;
  }

  async describe(id: string): Promise<MachineView> {
    const name = parseId(id).name;
    let vm: Awaited<ReturnType<AzureClients["compute"]["virtualMachines"]["get"]>>;
    try {
      vm = await this.clients.compute.virtualMachines.get(this.group, name);
    } catch (error) {
      if (statusOf(error).status === 404) return { state: "gone" };
      throw await this.clients.failure(error);
    }
    switch (vm.provisioningState) {
      case "Creating":
      case "Updating":
        return { state: "pending" };
      case "Succeeded":
        return { state: "running", ...(await this.addresses(vm.networkProfile?.networkInterfaces?.[0]?.id)) };
      default:
        return { state: "failed", reason: `is ${vm.provisioningState ?? "in no known state"}` };
    }
  }

  /** A running VM's public and private addresses, from its interface. */
  private async addresses(nicId: string | undefined): Promise<{ address?: string; privateAddress?: string }> {
    if (!nicId) return {};
    const { network } = this.clients;
    const nic = await this.api(() => network.networkInterfaces.get(this.group, parseId(nicId).name));
    const config = nic.ipConfigurations?.[0];
    const ipId = config?.publicIPAddress?.id;
    const ip = ipId ? await this.api(() => network.publicIPAddresses.get(this.group, parseId(ipId).name)) : undefined;
    return { address: ip?.ipAddress, privateAddress: config?.privateIPAddress };
  }

  /** A VM is asked to go (describe follows it); anything else is waited for. */
  async destroy(kind: string, id: string): Promise<"gone" | "busy"> {
    if (kind === AZURE_KINDS.key) return "gone";
    try {
      await this.destroyId(id);
      return "gone";
    } catch (error) {
      const { status, code } = statusOf(error);
      if (status === 404) return "gone";
      if (code && IN_USE.test(code)) return "busy";
      throw await this.clients.failure(error);
    }
  }

  private async destroyId(id: string): Promise<void> {
    const { type, name } = parseId(id);
    const { compute, network } = this.clients;
    switch (type.toLowerCase()) {
      case TYPES.vm.toLowerCase():
        return compute.virtualMachines.delete(this.group, name, this.lro).submitted();
      case TYPES.nic.toLowerCase():
        return network.networkInterfaces.beginDeleteAndWait(this.group, name, this.lro);
      case TYPES.publicIp.toLowerCase():
        return network.publicIPAddresses.beginDeleteAndWait(this.group, name, this.lro);
      case TYPES.nsg.toLowerCase():
        return network.networkSecurityGroups.beginDeleteAndWait(this.group, name, this.lro);
      case TYPES.asg.toLowerCase():
        return network.applicationSecurityGroups.beginDeleteAndWait(this.group, name, this.lro);
      default:
        throw new BenchwrightError("internal", `azure: no way to delete a ${type}`);
    }
  }

  /** Everything in the resource group tagged as ours. */
  async listTagged(): Promise<TaggedResource[]> {
    const { compute, network } = this.clients;
    const lists: Array<[string, AsyncIterable<{ id?: string; tags?: Record<string, string> }>]> = [
      [AZURE_KINDS.vm, compute.virtualMachines.list(this.group)],
      [AZURE_KINDS.nic, network.networkInterfaces.list(this.group)],
      [AZURE_KINDS.publicIp, network.publicIPAddresses.list(this.group)],
      [AZURE_KINDS.securityGroup, network.networkSecurityGroups.list(this.group)],
      [AZURE_KINDS.securityGroup, network.applicationSecurityGroups.list(this.group)],
    ];
    const found: TaggedResource[] = [];
    for (const [kind, list] of lists) {
      await this.api(async () => {
        for await (const r of list) {
          if (r.id && r.tags?.[TAG_MANAGED] === "true") found.push({ kind, id: r.id, session: r.tags[TAG_SESSION] ?? null });
        }
      });
    }
    return found;
  }
}

/** The application security group of a session's network security group. */
function peersName(nsg: string): string {
  return `${nsg}-peers`;
}

/** An inbound rule: every protocol, port and address unless `fields` narrow it. */
function rule(priority: number, access: "Allow" | "Deny", fields: Partial<SecurityRule>): SecurityRule {
  return {
    priority,
    access,
    direction: "Inbound",
    protocol: "*",
    sourcePortRange: "*",
    destinationPortRange: "*",
    ...(fields.sourceApplicationSecurityGroups ? {} : { sourceAddressPrefix: "*" }),
    ...(fields.destinationApplicationSecurityGroups ? {} : { destinationAddressPrefix: "*" }),
    ...fields,
  };
}

/** A URN (`publisher:offer:sku:version`) or an image's resource id (a gallery's, a managed image's), its form checked by the parser. */
function imageOf(image: string): ImageReference {
  if (image.startsWith("/")) return { id: image };
  const [publisher, offer, sku, version] = image.split(":");
  return { publisher, offer, sku, version };
}
