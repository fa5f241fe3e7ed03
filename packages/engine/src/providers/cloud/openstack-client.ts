import { guardedFetch, type GuardedFetch } from "../../net/guarded-fetch.js";
import { isOutboundRefused, PUBLIC_ONLY, type OutboundPolicy } from "../../net/outbound-guard.js";

/**
 * The few OpenStack calls Benchwright needs, over the outbound guard's fetch: Keystone v3
 * password auth, Nova (flavors, key pairs, servers), Glance v2 (images), Neutron v2.0
 * (networks, ports, floating IPs, security groups and their rules). Errors say which endpoint
 * failed and its status; the service's own message only where the operator allows private
 * endpoints (the endpoints are then theirs): otherwise whoever wrote the configuration could
 * read what any server answers. Never a header.
 */

export interface OpenStackCredentials {
  authUrl: string;
  username: string;
  password: string;
  project: string;
  domain: string;
  region?: string;
}

export class OpenStackError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "OpenStackError";
  }
}

interface NovaAddress {
  addr: string;
  version?: number;
  "OS-EXT-IPS:type"?: "fixed" | "floating";
}

export interface NovaServer {
  id: string;
  name: string;
  status: string;
  metadata?: Record<string, string>;
  addresses?: Record<string, NovaAddress[]>;
  fault?: { message?: string; code?: number };
  /** The image it was booted from (`""` when booted from a volume). */
  image?: { id?: string } | "";
  /** Its flavor: by id before microversion 2.47, by `original_name` from it. */
  flavor?: { id?: string; original_name?: string };
  "OS-EXT-AZ:availability_zone"?: string;
}

export interface ServerSpec {
  name: string;
  imageRef: string;
  flavorRef: string;
  key_name: string;
  metadata: Record<string, string>;
  networks?: Array<{ uuid: string }>;
  security_groups?: Array<{ name: string }>;
}

export interface FloatingIp {
  id: string;
  floating_ip_address: string;
  port_id?: string | null;
  description?: string;
}

type Service = "compute" | "network" | "image";

interface CatalogEntry {
  type: string;
  endpoints: Array<{ interface: string; url: string; region?: string; region_id?: string }>;
}

/** Keystone's base `.../v3`, whether the configuration gave the host or the versioned URL. */
function keystoneBase(authUrl: string): string {
  const trimmed = authUrl.replace(/\/+$/, "").replace(/\/auth\/tokens$/, "");
  return /\/v3$/.test(trimmed) ? trimmed : `${trimmed}/v3`;
}

/** The message in Nova's `{"badRequest": {"message"}}`, Neutron's `{"NeutronError": {...}}` or Keystone's `{"error": {...}}`. */
function serviceMessage(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  for (const value of Object.values(body as Record<string, unknown>)) {
    if (value && typeof value === "object" && typeof (value as { message?: unknown }).message === "string") {
      return (value as { message: string }).message;
    }
  }
  const top = (body as { message?: unknown }).message;
  return typeof top === "string" ? top : undefined;
}

export interface OpenStackClientOptions {
  /** Which addresses Keystone and its catalog's endpoints may be at (default: the Internet's only). */
  outbound?: OutboundPolicy;
  /** Tests: what sends each call instead of the guarded fetch of `outbound`. */
  fetch?: GuardedFetch;
  /** Told every token as it arrives, so the caller can keep it out of messages. */
  onToken?: (token: string) => void;
}

/** Which setting named the URL a call went to: what a failure points the operator at. */
function endpointOf(service: Service | "identity"): string {
  return service === "identity" ? "auth_url" : `the ${service} endpoint of Keystone's catalog`;
}

export class OpenStackClient {
  private token?: string;
  private endpoints?: Record<Service, string>;
  private readonly fetchImpl: GuardedFetch;
  private readonly onToken: (token: string) => void;
  /** Whether a service's own error message may go into an error (see the file's comment). */
  private readonly remoteText: boolean;

  constructor(
    private readonly credentials: OpenStackCredentials,
    options: OpenStackClientOptions = {},
  ) {
    const outbound = options.outbound ?? PUBLIC_ONLY;
    this.fetchImpl = options.fetch ?? guardedFetch(outbound);
    this.onToken = options.onToken ?? (() => undefined);
    this.remoteText = outbound.allowPrivate;
  }

  async authenticate(): Promise<void> {
    const c = this.credentials;
    const body = {
      auth: {
        identity: {
          methods: ["password"],
          password: { user: { name: c.username, domain: { name: c.domain }, password: c.password } },
        },
        scope: { project: { name: c.project, domain: { name: c.domain } } },
      },
    };
    const res = await this.send("authenticating", "identity", `${keystoneBase(c.authUrl)}/auth/tokens`, "POST", body, undefined);
    const token = res.headers.get("x-subject-token");
    if (!token) throw new OpenStackError(res.status, "authenticating: Keystone returned no token");
    this.token = token;
    this.onToken(token);
    const answer = await this.json<{ token?: { catalog?: CatalogEntry[] } }>("authenticating", "identity", res);
    const catalog = Array.isArray(answer.token?.catalog) ? answer.token.catalog : [];
    const find = (type: string): string => {
      const entry = catalog.find((e) => e?.type === type);
      const endpoint = (Array.isArray(entry?.endpoints) ? entry.endpoints : []).find(
        (e) => e.interface === "public" && (!c.region || e.region_id === c.region || e.region === c.region),
      );
      if (typeof endpoint?.url !== "string") {
        throw new OpenStackError(0, `the service catalog has no public ${type} endpoint${c.region ? ` in region ${c.region}` : ""}`);
      }
      return endpoint.url.replace(/\/+$/, "");
    };
    const network = find("network");
    this.endpoints = {
      compute: find("compute"),
      network: /\/v2\.0$/.test(network) ? network : `${network}/v2.0`,
      image: find("image").replace(/\/v2$/, "") + "/v2",
    };
  }

  private async send(what: string, service: Service | "identity", url: string, method: string, body: unknown, token: string | undefined): Promise<Response> {
    const where = endpointOf(service);
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method,
        headers: {
          Accept: "application/json",
          ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...(token ? { "X-Auth-Token": token } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      if (isOutboundRefused(error)) throw new OpenStackError(0, `${what}: ${where} refused: ${(error as Error).message}`);
      const e = error as { code?: unknown; cause?: { code?: unknown } };
      const code = typeof e.code === "string" ? e.code : typeof e.cause?.code === "string" ? e.cause.code : undefined;
      let host = "";
      try {
        host = ` (${new URL(url).host})`;
      } catch {
        // A URL that does not parse names no host.
      }
      throw new OpenStackError(0, `${what}: cannot reach ${where}${host}${code ? `: ${code}` : ""}`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw new OpenStackError(res.status, `${what}: ${where} answered HTTP ${res.status}, a redirect, which is not followed`);
    }
    if (res.status >= 400) {
      const text = await res.text();
      if (!this.remoteText) throw new OpenStackError(res.status, `${what}: HTTP ${res.status} from ${where}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const message = serviceMessage(parsed) ?? res.statusText;
      throw new OpenStackError(res.status, `${what}: HTTP ${res.status}${message ? ` ${message}` : ""}`);
    }
    return res;
  }

  /** The answer's JSON; one that is not JSON fails without quoting it (a parse error would). */
  private async json<T>(what: string, service: Service | "identity", res: Response): Promise<T> {
    const text = await res.text();
    try {
      return (text ? JSON.parse(text) : {}) as T;
    } catch {
      throw new OpenStackError(res.status, `${what}: ${endpointOf(service)} answered something that is not JSON`);
    }
  }

  /** One call to a catalog service; a token that expired meanwhile is renewed once. */
  private async call<T>(what: string, service: Service, method: string, path: string, body?: unknown): Promise<T> {
    if (!this.token || !this.endpoints) await this.authenticate();
    let res: Response;
    try {
      res = await this.send(what, service, `${this.endpoints![service]}${path}`, method, body, this.token);
    } catch (error) {
      if (!(error instanceof OpenStackError && error.status === 401)) throw error;
      await this.authenticate();
      res = await this.send(what, service, `${this.endpoints![service]}${path}`, method, body, this.token);
    }
    return this.json<T>(what, service, res);
  }

  /** Deletes, taking "already gone" (404) as done. */
  private async remove(what: string, service: Service, path: string): Promise<void> {
    try {
      await this.call(what, service, "DELETE", path);
    } catch (error) {
      if (!(error instanceof OpenStackError && error.status === 404)) throw error;
    }
  }

  async findFlavor(nameOrId: string): Promise<{ id: string; name: string } | undefined> {
    const out = await this.call<{ flavors: Array<{ id: string; name: string }> }>("listing flavors", "compute", "GET", "/flavors/detail");
    return out.flavors.find((f) => f.name === nameOrId) ?? out.flavors.find((f) => f.id === nameOrId);
  }

  /** By id, else the newest active image of that name. */
  async findImage(nameOrId: string): Promise<{ id: string; name: string } | undefined> {
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(nameOrId)) {
      try {
        return await this.call<{ id: string; name: string }>("getting the image", "image", "GET", `/images/${nameOrId}`);
      } catch (error) {
        if (!(error instanceof OpenStackError && error.status === 404)) throw error;
      }
    }
    const out = await this.call<{ images: Array<{ id: string; name: string; status: string; created_at?: string }> }>(
      "listing images",
      "image",
      "GET",
      `/images?name=${encodeURIComponent(nameOrId)}&status=active`,
    );
    return out.images.sort((a, b) => (b.created_at ?? "").localeCompare(a.created_at ?? ""))[0];
  }

  /**
   * Imports `publicKey` under `name`, or has Nova make the key and hand back its private half
   * (microversions before 2.92, which is why none is requested).
   */
  async createKeypair(name: string, publicKey?: string): Promise<{ name: string; private_key?: string }> {
    const out = await this.call<{ keypair: { name: string; private_key?: string } }>(
      publicKey ? "importing the key pair" : "creating the key pair",
      "compute",
      "POST",
      "/os-keypairs",
      { keypair: publicKey ? { name, public_key: publicKey } : { name } },
    );
    if (!publicKey && !out.keypair.private_key) throw new OpenStackError(0, "creating the key pair: Nova returned no private key");
    return { name: out.keypair.name, private_key: out.keypair.private_key };
  }

  async listKeypairs(): Promise<string[]> {
    const out = await this.call<{ keypairs: Array<{ keypair: { name: string } }> }>("listing key pairs", "compute", "GET", "/os-keypairs");
    return out.keypairs.map((k) => k.keypair.name);
  }

  deleteKeypair(name: string): Promise<void> {
    return this.remove(`deleting key pair ${name}`, "compute", `/os-keypairs/${encodeURIComponent(name)}`);
  }

  async createServer(spec: ServerSpec): Promise<string> {
    const out = await this.call<{ server: { id: string } }>("creating the server", "compute", "POST", "/servers", { server: spec });
    return out.server.id;
  }

  async getServer(id: string): Promise<NovaServer | undefined> {
    try {
      return (await this.call<{ server: NovaServer }>("getting the server", "compute", "GET", `/servers/${id}`)).server;
    } catch (error) {
      if (error instanceof OpenStackError && error.status === 404) return undefined;
      throw error;
    }
  }

  async listServers(): Promise<NovaServer[]> {
    return (await this.call<{ servers: NovaServer[] }>("listing servers", "compute", "GET", "/servers/detail")).servers;
  }

  deleteServer(id: string): Promise<void> {
    return this.remove(`deleting server ${id}`, "compute", `/servers/${id}`);
  }

  async findNetwork(name: string): Promise<string | undefined> {
    const out = await this.call<{ networks: Array<{ id: string }> }>("finding the network", "network", "GET", `/networks?name=${encodeURIComponent(name)}`);
    return out.networks[0]?.id;
  }

  /** Where floating IPs come from: the named pool, else the first external network. */
  async externalNetwork(name?: string): Promise<string | undefined> {
    const query = name ? `name=${encodeURIComponent(name)}&router:external=true` : "router:external=true";
    const out = await this.call<{ networks: Array<{ id: string }> }>("finding the external network", "network", "GET", `/networks?${query}`);
    return out.networks[0]?.id;
  }

  async serverPort(serverId: string): Promise<string | undefined> {
    const out = await this.call<{ ports: Array<{ id: string }> }>("finding the server's port", "network", "GET", `/ports?device_id=${serverId}`);
    return out.ports[0]?.id;
  }

  async createFloatingIp(networkId: string, portId: string, description: string): Promise<FloatingIp> {
    const out = await this.call<{ floatingip: FloatingIp }>("creating the floating IP", "network", "POST", "/floatingips", {
      floatingip: { floating_network_id: networkId, port_id: portId, description },
    });
    return out.floatingip;
  }

  async listFloatingIps(): Promise<FloatingIp[]> {
    return (await this.call<{ floatingips: FloatingIp[] }>("listing floating IPs", "network", "GET", "/floatingips")).floatingips;
  }

  deleteFloatingIp(id: string): Promise<void> {
    return this.remove(`deleting floating IP ${id}`, "network", `/floatingips/${id}`);
  }

  async createSecurityGroup(name: string, description: string): Promise<string> {
    const out = await this.call<{ security_group: { id: string } }>("creating the security group", "network", "POST", "/security-groups", {
      security_group: { name, description },
    });
    return out.security_group.id;
  }

  /** Lets TCP in on `port` from anywhere; a rule already there is fine. */
  allowTcpIn(groupId: string, port: number): Promise<void> {
    return this.allowIn("opening SSH in the security group", groupId, {
      protocol: "tcp",
      port_range_min: port,
      port_range_max: port,
      remote_ip_prefix: "0.0.0.0/0",
    });
  }

  /** Lets every protocol and port in from the ports in `remoteGroupId` (no protocol: any); a rule already there is fine. */
  allowGroupIn(groupId: string, remoteGroupId: string): Promise<void> {
    return this.allowIn("letting the security group's members in", groupId, { remote_group_id: remoteGroupId });
  }

  /** Adds an IPv4 ingress rule. A rule already there is fine; Neutron's other 409, a quota exceeded, is not. */
  private async allowIn(what: string, groupId: string, rule: Record<string, unknown>): Promise<void> {
    try {
      await this.call(what, "network", "POST", "/security-group-rules", {
        security_group_rule: { security_group_id: groupId, direction: "ingress", ethertype: "IPv4", ...rule },
      });
    } catch (error) {
      if (!(error instanceof OpenStackError && error.status === 409 && /already exists/i.test(error.message))) throw error;
    }
  }

  async listSecurityGroups(): Promise<Array<{ id: string; name: string; description?: string }>> {
    const out = await this.call<{ security_groups: Array<{ id: string; name: string; description?: string }> }>(
      "listing security groups",
      "network",
      "GET",
      "/security-groups",
    );
    return out.security_groups;
  }

  /** Deletes a group; "busy" while a port (a server being deleted) still uses it. */
  async deleteSecurityGroup(id: string): Promise<"gone" | "busy"> {
    try {
      await this.remove(`deleting security group ${id}`, "network", `/security-groups/${id}`);
      return "gone";
    } catch (error) {
      if (error instanceof OpenStackError && error.status === 409) return "busy";
      throw error;
    }
  }
}
