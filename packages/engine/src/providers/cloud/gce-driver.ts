import compute from "@google-cloud/compute";
import { guardedFetch } from "../../net/guarded-fetch.js";
import { PUBLIC_ONLY } from "../../net/outbound-guard.js";
import { TAG_MANAGED, TAG_SESSION, type CloudProviderOptions, type CloudSettings } from "./cloud-settings.js";
import { guardedAuth, serviceAccountAuth, type HeaderSource } from "./gce-auth.js";
import type { CloudDriver, LaunchSpec, MachineView, TaggedResource } from "./cloud-driver.js";
import { GCE_KINDS } from "./gce-kinds.js";
import { localKey } from "./local-key.js";

/** Label keys may not hold a colon: `benchwright:session` becomes `benchwright-session`. */
const LABEL_SESSION = TAG_SESSION.replace(":", "-");
const LABEL_MANAGED = TAG_MANAGED.replace(":", "-");

/** Firewalls take no labels: their description says whose they are. */
function description(sessionId: string): string {
  return `${TAG_SESSION}=${sessionId} ${TAG_MANAGED}=true`;
}

/** gax turns the REST API's HTTP 404 into gRPC's NOT_FOUND (5). */
function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 5 || code === 404;
}

/**
 * Google Compute Engine: one instance with the session's labels and its SSH key in the
 * instance metadata (GCE has no key pairs: a key is made here when none is configured), a
 * firewall rule letting SSH in to the instance's network tag, and another letting the
 * session's instances (that tag) reach each other.
 */
export class GceDriver implements CloudDriver {
  readonly name = "gce";
  readonly kinds = { machine: GCE_KINDS.instance, key: GCE_KINDS.key, access: GCE_KINDS.firewall };
  private readonly instances: InstanceType<typeof compute.InstancesClient>;
  private readonly firewalls: InstanceType<typeof compute.FirewallsClient>;
  private readonly where: { project: string; zone: string };

  constructor(
    private readonly settings: CloudSettings<"gce">,
    options: CloudProviderOptions,
  ) {
    const fetch = guardedFetch(options.outbound ?? PUBLIC_ONLY);
    const given = options.gceClient;
    const auth = guardedAuth(given ? (given.authClient as HeaderSource) : serviceAccountAuth(settings.accessId, settings.secretKey, fetch), fetch);
    const client = given ? { ...given, authClient: auth, fallback: true } : { authClient: auth, projectId: settings.project, fallback: true };
    this.instances = new compute.InstancesClient(client as never);
    this.firewalls = new compute.FirewallsClient(client as never);
    this.where = { project: settings.project, zone: settings.region };
  }

  private get network(): string {
    const n = this.settings.network ?? "default";
    return n.includes("/") ? n : `global/networks/${n}`;
  }

  /** Nothing to make at GCE: the public key goes into the instance's metadata at launch. */
  async createKey(spec: { name: string; publicKey?: string }) {
    return localKey(spec);
  }

  /** The session's SSH firewall; its name is the network tag it lets SSH in to (the session's tag). */
  createAccess(spec: { name: string; sessionId: string; sshPort: number }): Promise<string> {
    return this.insertFirewall(spec, {
      allowed: [{ IPProtocol: "tcp", ports: [String(spec.sshPort)] }],
      sourceRanges: ["0.0.0.0/0"],
      targetTags: [spec.name],
    });
  }

  /** The rule came with the firewall. */
  async openAccess(): Promise<void> {}

  /**
   * A firewall's sourceRanges and sourceTags are ORed and its `allowed` goes for both: the SSH
   * firewall cannot take the session's machines as a source without letting everything in from
   * everywhere. So a second one, on the same network and described as the first, lets every
   * protocol and port in from the instances tagged with the session's tag (`access`, the SSH
   * firewall's name) to them, and from nowhere else (no sourceRanges: GCE would take a firewall
   * with no source at all as open to every address, hence the tags are always given).
   */
  createPeerAccess(spec: { name: string; sessionId: string; access: string }): Promise<string> {
    return this.insertFirewall(spec, { allowed: [{ IPProtocol: "all" }], sourceTags: [spec.access], targetTags: [spec.access] });
  }

  /** An ingress firewall of the session on its network, described as ours; returns its name. */
  private async insertFirewall(
    spec: { name: string; sessionId: string },
    rule: {
      allowed: Array<{ IPProtocol: string; ports?: string[] }>;
      sourceRanges?: string[];
      sourceTags?: string[];
      targetTags: string[];
    },
  ): Promise<string> {
    await this.firewalls.insert({
      project: this.where.project,
      firewallResource: { name: spec.name, description: description(spec.sessionId), network: this.network, direction: "INGRESS", ...rule },
    });
    return spec.name;
  }

  async launch(spec: LaunchSpec): Promise<string> {
    const s = this.settings;
    const image = s.image.includes("/") ? s.image : `projects/${this.where.project}/global/images/${s.image}`;
    await this.instances.insert({
      ...this.where,
      instanceResource: {
        name: spec.name,
        machineType: `zones/${this.where.zone}/machineTypes/${s.size}`,
        labels: { [LABEL_SESSION]: spec.sessionId, [LABEL_MANAGED]: "true" },
        tags: { items: "created" in spec.access ? [spec.access.created] : spec.access.configured.split(",").map((t) => t.trim()) },
        metadata: { items: [{ key: "ssh-keys", value: `${s.vmUser}:${spec.publicKey} ${s.vmUser}` }] },
        disks: [{ boot: true, autoDelete: true, initializeParams: { sourceImage: image } }],
        // ONE_TO_ONE_NAT: an external address, without which nothing outside the VPC reaches it.
        networkInterfaces: [{ network: this.network, accessConfigs: [{ type: "ONE_TO_ONE_NAT", name: "External NAT" }] }],
      },
    });
    return spec.name;
  }

  async describe(name: string): Promise<MachineView> {
    let instance: compute.protos.google.cloud.compute.v1.IInstance;
    try {
      [instance] = await this.instances.get({ ...this.where, instance: name });
    } catch (error) {
      if (isNotFound(error)) return { state: "gone" };
      throw error;
    }
    const nic = instance.networkInterfaces?.[0];
    switch (instance.status) {
      case "PROVISIONING":
      case "STAGING":
        return { state: "pending" };
      case "RUNNING":
        return {
          state: "running",
          address: nic?.accessConfigs?.[0]?.natIP ?? nic?.networkIP ?? undefined,
          privateAddress: nic?.networkIP ?? undefined,
          // GCE names both by URL (`.../zones/europe-west1-b/machineTypes/e2-small`); the image is its boot disk's, not the instance's.
          placement: { instanceType: lastSegment(instance.machineType), zone: lastSegment(instance.zone) },
        };
      default:
        return { state: "failed", reason: `is ${instance.status}${instance.statusMessage ? `: ${instance.statusMessage}` : ""}` };
    }
  }

  async destroy(kind: string, id: string): Promise<"gone" | "busy"> {
    try {
      if (kind === GCE_KINDS.instance) await this.instances.delete({ ...this.where, instance: id });
      else if (kind === GCE_KINDS.firewall) await this.firewalls.delete({ project: this.where.project, firewall: id });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    return "gone";
  }

  async listTagged(): Promise<TaggedResource[]> {
    const found: TaggedResource[] = [];
    const [instances] = await this.instances.list({ ...this.where, filter: `labels.${LABEL_MANAGED}=true` });
    for (const i of instances) {
      if (i.name && i.labels?.[LABEL_MANAGED] === "true") found.push({ kind: GCE_KINDS.instance, id: i.name, session: i.labels[LABEL_SESSION] ?? null });
    }
    const [firewalls] = await this.firewalls.list({ project: this.where.project });
    for (const f of firewalls) {
      if (!f.name || !f.description?.includes(`${TAG_MANAGED}=true`)) continue;
      found.push({ kind: GCE_KINDS.firewall, id: f.name, session: /benchwright:session=(\S+)/.exec(f.description)?.[1] ?? null });
    }
    return found;
  }
}

/** The last segment of a resource URL, or undefined for none. */
function lastSegment(url: string | null | undefined): string | undefined {
  return url ? url.slice(url.lastIndexOf("/") + 1) || undefined : undefined;
}
