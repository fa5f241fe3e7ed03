import { BenchwrightError } from "../../errors.js";
import type { Machine, Provider, ProviderContext, ResolvedConfig, SweptResource } from "../provider.js";
import {
  cloudSettings,
  resourceName,
  sessionFromName,
  TAG_MANAGED,
  TAG_SESSION,
  type CloudProviderOptions,
  type CloudSettings,
} from "./cloud-config.js";
import { OpenStackClient, type NovaServer } from "./openstack-client.js";
import { pollUntil } from "./polling.js";
import { Attempts, createOrTearDown, SweepReport, tearDown, type SweepOptions } from "./lifecycle.js";
import { scrubberOf, type Scrubber } from "../../secrets/scrub.js";
import { waitForSsh } from "./wait-for-ssh.js";
import { runPostCreate } from "./post-create.js";

export const OPENSTACK_KINDS = {
  server: "openstack:server",
  keyPair: "openstack:key_pair",
  floatingIp: "openstack:floating_ip",
} as const;

type Live = Array<{ kind: string; id: string; meta: Record<string, unknown> }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Addresses nobody outside the cloud can reach: they call for a floating IP. */
function isPrivate(addr: string): boolean {
  if (addr.includes(":")) return /^(fc|fd|fe80|::1$)/i.test(addr);
  const [a, b] = addr.split(".").map(Number);
  return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
}

function addressesOf(server: NovaServer) {
  const all = Object.values(server.addresses ?? {}).flat();
  const v4 = all.filter((a) => a.version !== 6 && !a.addr.includes(":"));
  return {
    floating: v4.find((a) => a["OS-EXT-IPS:type"] === "floating")?.addr,
    publicFixed: v4.find((a) => a["OS-EXT-IPS:type"] !== "floating" && !isPrivate(a.addr))?.addr,
    anyFixed: v4.find((a) => a["OS-EXT-IPS:type"] !== "floating")?.addr,
  };
}

function floatingDescription(sessionId: string): string {
  return `${TAG_SESSION}=${sessionId} ${TAG_MANAGED}=true`;
}

function sessionOfDescription(description: string | undefined): string | null | undefined {
  if (!description?.includes(`${TAG_MANAGED}=true`)) return undefined;
  return /benchwright:session=(\S+)/.exec(description)?.[1] ?? null;
}

/** OpenStack: a Nova key pair, one server with our metadata, a floating IP when needed. */
export class OpenStackProvider implements Provider {
  private readonly settings: CloudSettings;
  private readonly client: OpenStackClient;
  private readonly scrubber: Scrubber;

  constructor(
    private readonly config: ResolvedConfig,
    options: CloudProviderOptions = {},
  ) {
    this.settings = cloudSettings(config, options);
    const s = this.settings;
    this.scrubber = scrubberOf(config);
    this.client = new OpenStackClient(
      { authUrl: s.authUrl!, username: s.accessId, password: s.secretKey, project: s.tenant, domain: s.domain, region: s.region },
      options.fetch ?? fetch,
      (token) => this.scrubber.add(token),
    );
  }

  ensureMachines(ctx: ProviderContext): Promise<Machine[]> {
    return createOrTearDown(
      "openstack",
      ctx,
      { scrubber: this.scrubber },
      async (log) => [await this.ensureServer(ctx, log)],
      (log) => this.teardown(ctx, log),
    );
  }

  destroy(ctx: ProviderContext): Promise<void> {
    return tearDown("openstack", ctx, { scrubber: this.scrubber }, (log) => this.teardown(ctx, log));
  }

  private async step<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      // The client's messages already say which call failed and what the service answered.
      throw this.scrubber.fail("openstack", error);
    }
  }

  private async ensureServer(ctx: ProviderContext, log: (line: string) => void): Promise<Machine> {
    const s = this.settings;
    const live: Live = await ctx.resources.live();
    let key = this.knownKey(live);

    for (const entry of live.filter((r) => r.kind === OPENSTACK_KINDS.server)) {
      const server = await this.step(() => this.client.getServer(entry.id));
      if (server && (server.status === "ACTIVE" || server.status === "BUILD") && key) {
        log(`openstack: session already has server ${entry.id} (${server.status})`);
        return this.finish(ctx, entry.id, entry.meta, key.privateKey, live, log);
      }
      if (server) await this.deleteServerAndWait(entry.id, ctx.signal);
      await ctx.resources.markDestroyed(OPENSTACK_KINDS.server, entry.id);
    }

    const flavor = await this.step(() => this.client.findFlavor(s.size));
    if (!flavor) throw new BenchwrightError("provider_failed", `openstack: no flavor named '${s.size}'`);
    const image = await this.step(() => this.client.findImage(s.image));
    if (!image) throw new BenchwrightError("provider_failed", `openstack: no image named '${s.image}'`);
    let networkId: string | undefined;
    if (s.network) {
      networkId = UUID.test(s.network) ? s.network : await this.step(() => this.client.findNetwork(s.network!));
      if (!networkId) throw new BenchwrightError("provider_failed", `openstack: no network named '${s.network}'`);
    }

    if (!key) {
      const name = resourceName(ctx.sessionId);
      const made = await this.step(() => this.client.createKeypair(name));
      this.scrubber.add(made.private_key);
      const privateKey = made.private_key.trim() + "\n";
      // The lead seals meta fields named `private_key` at rest.
      await ctx.resources.record(OPENSTACK_KINDS.keyPair, name, { private_key: privateKey });
      log(`openstack: created key pair ${name}`);
      key = { name, privateKey };
    }

    const serverName = resourceName(ctx.sessionId);
    const serverId = await this.step(() =>
      this.client.createServer({
        name: serverName,
        imageRef: image.id,
        flavorRef: flavor.id,
        key_name: key!.name,
        metadata: { [TAG_SESSION]: ctx.sessionId, [TAG_MANAGED]: "true" },
        networks: networkId ? [{ uuid: networkId }] : undefined,
        security_groups: s.securityGroup ? s.securityGroup.split(",").map((name) => ({ name: name.trim() })) : undefined,
      }),
    );
    const meta = { ssh_port: s.sshPort, key_name: key.name, name: serverName };
    await ctx.resources.record(OPENSTACK_KINDS.server, serverId, meta);
    log(`openstack: created server ${serverId} (${flavor.name}, ${image.name})`);
    return this.finish(ctx, serverId, meta, key.privateKey, live, log);
  }

  private knownKey(live: Live): { name: string; privateKey: string } | undefined {
    const s = this.settings;
    if (s.keyName && s.sshPrivateKey) return { name: s.keyName, privateKey: s.sshPrivateKey };
    const made = live.find((r) => r.kind === OPENSTACK_KINDS.keyPair && typeof r.meta.private_key === "string");
    if (!made) return undefined;
    const privateKey = made.meta.private_key as string;
    this.scrubber.add(privateKey);
    return { name: made.id, privateKey };
  }

  /** Waits until the server is active and SSH answers, then initializes it once (post_create_script). */
  private async finish(
    ctx: ProviderContext,
    serverId: string,
    meta: Record<string, unknown>,
    privateKey: string,
    live: Live,
    log: (line: string) => void,
  ): Promise<Machine> {
    const s = this.settings;
    const sshPort = Number(meta.ssh_port) || s.sshPort;
    const server = await pollUntil(
      async () => {
        const found = await this.step(() => this.client.getServer(serverId));
        if (!found) throw new BenchwrightError("provider_failed", `openstack: server ${serverId} disappeared`);
        if (found.status === "ACTIVE") return found;
        if (found.status === "ERROR") {
          const fault = found.fault?.message ? ` (${found.fault.message})` : "";
          throw new BenchwrightError("provider_failed", `openstack: server ${serverId} went into ERROR${fault}`);
        }
        return undefined;
      },
      { timeoutMs: s.stateTimeoutMs, intervalMs: s.pollIntervalMs, what: `openstack: server ${serverId} was not active`, signal: ctx.signal },
    );
    const addresses = addressesOf(server);
    let ip = addresses.floating ?? addresses.publicFixed;
    if (!ip && s.noFloatingIp) ip = addresses.anyFixed;
    if (!ip) ip = await this.floatingIp(ctx, serverId, live, log);
    log(`openstack: server ${serverId} is active at ${ip}; waiting for SSH on port ${sshPort}`);
    await waitForSsh(ip, sshPort, { timeoutMs: s.sshTimeoutMs, intervalMs: s.sshPollIntervalMs, attempts: s.sshAttempts, signal: ctx.signal });
    log(`openstack: SSH answers on ${ip}:${sshPort}`);
    const machine: Machine = {
      id: serverId,
      ip,
      platform: s.platform,
      workRoot: s.workRoot,
      allowInstall: true,
      ssh: { host: ip, port: sshPort, username: s.vmUser, privateKey },
    };
    if (s.postCreateScript && meta.post_created !== true) {
      await runPostCreate(ctx, machine, s.postCreateScript, s.postCreateTimeoutMs, (line) => log(`openstack: ${line}`));
      // Recorded on the server's own entry: a later prepare, in any process, does not run it again.
      await ctx.resources.record(OPENSTACK_KINDS.server, serverId, { ...meta, post_created: true });
    }
    return machine;
  }

  private async floatingIp(ctx: ProviderContext, serverId: string, live: Live, log: (line: string) => void): Promise<string> {
    const recorded = live.find(
      (r) => r.kind === OPENSTACK_KINDS.floatingIp && r.meta.server_id === serverId && typeof r.meta.address === "string",
    );
    if (recorded) return recorded.meta.address as string;
    const pool = this.settings.floatingIpPool;
    const networkId = await this.step(() => this.client.externalNetwork(pool));
    if (!networkId) throw new BenchwrightError("provider_failed", `openstack: no external network${pool ? ` named '${pool}'` : ""} for a floating IP`);
    const portId = await this.step(() => this.client.serverPort(serverId));
    if (!portId) throw new BenchwrightError("provider_failed", `openstack: server ${serverId} has no network port`);
    const fip = await this.step(() => this.client.createFloatingIp(networkId, portId, floatingDescription(ctx.sessionId)));
    await ctx.resources.record(OPENSTACK_KINDS.floatingIp, fip.id, { address: fip.floating_ip_address, server_id: serverId });
    log(`openstack: attached floating IP ${fip.floating_ip_address} to server ${serverId}`);
    return fip.floating_ip_address;
  }

  private async deleteServerAndWait(id: string, signal?: AbortSignal): Promise<void> {
    await this.step(() => this.client.deleteServer(id));
    await pollUntil(
      async () => {
        const server = await this.step(() => this.client.getServer(id));
        return !server || server.status === "DELETED" ? true : undefined;
      },
      { timeoutMs: this.settings.stateTimeoutMs, intervalMs: this.settings.pollIntervalMs, what: `openstack: server ${id} was not gone`, signal },
    );
  }

  /** Floating IPs, then servers (waiting until gone), then key pairs; every step is tried. */
  private async teardown(ctx: ProviderContext, log: (line: string) => void): Promise<void> {
    const live = await ctx.resources.live();
    const attempts = new Attempts(this.scrubber);
    const attempt = attempts.run.bind(attempts);
    for (const fip of live.filter((r) => r.kind === OPENSTACK_KINDS.floatingIp)) {
      await attempt(`deleting floating IP ${fip.id}`, async () => {
        await this.step(() => this.client.deleteFloatingIp(fip.id));
        await ctx.resources.markDestroyed(OPENSTACK_KINDS.floatingIp, fip.id);
        log(`openstack: deleted floating IP ${fip.id}`);
      });
    }
    for (const server of live.filter((r) => r.kind === OPENSTACK_KINDS.server)) {
      await attempt(`deleting server ${server.id}`, async () => {
        await this.deleteServerAndWait(server.id, ctx.signal);
        await ctx.resources.markDestroyed(OPENSTACK_KINDS.server, server.id);
        log(`openstack: deleted server ${server.id}`);
      });
    }
    for (const key of live.filter((r) => r.kind === OPENSTACK_KINDS.keyPair)) {
      await attempt(`deleting key pair ${key.id}`, async () => {
        await this.step(() => this.client.deleteKeypair(key.id));
        await ctx.resources.markDestroyed(OPENSTACK_KINDS.keyPair, key.id);
        log(`openstack: deleted key pair ${key.id}`);
      });
    }
    attempts.throwIfAny();
  }

  async sweep(
    _config: ResolvedConfig,
    options: SweepOptions,
  ): Promise<SweptResource[]> {
    const report = new SweepReport("openstack", this.config.name, options, this.scrubber);
    try {
      for (const fip of await this.client.listFloatingIps()) {
        const session = sessionOfDescription(fip.description);
        if (session !== undefined && (await report.orphaned(session))) {
          await report.destroy(OPENSTACK_KINDS.floatingIp, fip.id, session, () => this.client.deleteFloatingIp(fip.id));
        }
      }
      for (const server of await this.client.listServers()) {
        if (server.metadata?.[TAG_MANAGED] !== "true") continue;
        const session = server.metadata[TAG_SESSION] ?? null;
        if (await report.orphaned(session)) {
          await report.destroy(OPENSTACK_KINDS.server, server.id, session, () => this.deleteServerAndWait(server.id));
        }
      }
      // Nova key pairs carry no metadata: their name holds the session id.
      for (const name of await this.client.listKeypairs()) {
        const session = sessionFromName(name);
        if (session !== null && (await report.orphaned(session))) {
          await report.destroy(OPENSTACK_KINDS.keyPair, name, session, () => this.client.deleteKeypair(name));
        }
      }
    } catch (error) {
      throw this.scrubber.fail("openstack sweep failed", error);
    }
    return report.resources;
  }
}
