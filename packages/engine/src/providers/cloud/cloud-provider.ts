import { BenchwrightError } from "../../errors.js";
import type { Scrubber } from "../../secrets/scrub.js";
import { loadSsh2 } from "../../transport/ssh2-module.js";
import type { Machine, MachinePlacement, Provider, ProviderContext, SweptResource } from "../provider.js";
import { resourceName, type CloudSettings } from "./cloud-settings.js";
import type { CloudDriver, LaunchSpec, MachineView } from "./cloud-driver.js";
import { Attempts, createOrTearDown, SweepReport, tearDown, type SweepOptions } from "./lifecycle.js";
import { cancelled, pollUntil } from "./polling.js";
import { runPostCreate } from "./post-create.js";
import { waitForSsh } from "./wait-for-ssh.js";

type Log = (line: string) => void;
type Live = Array<{ kind: string; id: string; meta: Record<string, unknown> }>;
type Key = { name: string; privateKey: string };
/** A machine of the session, as the ledger holds it; `askedAt` (performance.now()) when this call launched it. */
type Launched = { id: string; meta: Record<string, unknown>; askedAt?: number };

/** How many machines the step needs: `ctx.count`, at least one. */
function machineCount(ctx: ProviderContext): number {
  const count = ctx.count ?? 1;
  if (!Number.isInteger(count)) throw new BenchwrightError("internal", `a step cannot need ${count} machines`);
  return Math.max(1, count);
}

/** The OpenSSH public key line of a configured private key, to import it as the session's key pair. */
export async function publicKeyOf(privateKey: string): Promise<string> {
  const parsed = (await loadSsh2()).utils.parseKey(privateKey);
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || key instanceof Error) {
    throw new BenchwrightError("provider_failed", `ssh_private_key cannot be read${key instanceof Error ? `: ${key.message}` : ""}`);
  }
  return `${key.type} ${key.getPublicSSH().toString("base64")}`;
}

/**
 * One cloud session's lifecycle, whatever the cloud: a key pair (the configured one, the
 * configured private key imported, or one made), a firewall letting SSH in (the configured
 * one, or one made, which also lets the session's machines reach each other on every protocol
 * and port), both shared by the session's machines (as many as the step needs, at least one),
 * an address for each when the cloud needs one; each recorded in the
 * ledger as soon as it exists and before anything waits on it. Waits end when the step is
 * aborted; any failure tears down what the session made; a sweep removes what sessions that
 * are gone left behind.
 */
export class CloudProvider implements Provider {
  constructor(
    private readonly settings: CloudSettings,
    private readonly driver: CloudDriver,
    private readonly scrubber: Scrubber,
  ) {}

  async ensureMachines(ctx: ProviderContext): Promise<Machine[]> {
    // Checked before anything is made: a count that makes no sense must not tear the session down.
    const count = machineCount(ctx);
    return createOrTearDown(
      this.driver.name,
      ctx,
      { scrubber: this.scrubber },
      (log) => this.ensureSessionMachines(ctx, count, this.tagged(log)),
      (log) => this.teardown(ctx, this.tagged(log)),
    );
  }

  destroy(ctx: ProviderContext): Promise<void> {
    return tearDown(this.driver.name, ctx, { scrubber: this.scrubber }, (log) => this.teardown(ctx, this.tagged(log)));
  }

  async sweep(options: SweepOptions): Promise<SweptResource[]> {
    const report = new SweepReport(this.driver.name, this.settings.name, options, this.scrubber);
    const found = await this.call("listing tagged resources", () => this.driver.listTagged());
    for (const r of this.inTeardownOrder(found)) {
      if (await report.orphaned(r.session)) await report.destroy(r.kind, r.id, r.session, () => this.destroyOne(r.kind, r.id));
    }
    return report.resources;
  }

  private tagged(log: Log): Log {
    return (line) => log(`${this.driver.name}: ${line}`);
  }

  /** A driver call whose failure says what was being done, scrubbed of credentials. */
  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.scrubber.fail(`${this.driver.name} ${what} failed`, error);
    }
  }

  private checkAborted(ctx: ProviderContext): void {
    if (ctx.signal?.aborted) throw cancelled(ctx.signal);
  }

  /**
   * The session's usable machines (ledger order: launch order), with the missing ones
   * launched one after another (each recorded as soon as it exists) and sharing the key and
   * the firewall; then all waited for at once.
   */
  private async ensureSessionMachines(ctx: ProviderContext, count: number, log: Log): Promise<Machine[]> {
    const { kinds } = this.driver;
    const live: Live = await ctx.resources.live();
    let key = this.knownKey(live);
    const machines: Launched[] = [];

    for (const entry of live.filter((r) => r.kind === kinds.machine)) {
      const view = await this.call("describing a machine", () => this.driver.describe(entry.id));
      if ((view.state === "pending" || view.state === "running") && key) {
        log(`session already has machine ${entry.id} (${view.state})`);
        machines.push(entry);
        continue;
      }
      // Unusable, or gone behind our back: make sure it is gone, then replace it.
      if (view.state !== "gone" && view.state !== "unseen") await this.destroyOne(kinds.machine, entry.id);
      await ctx.resources.markDestroyed(kinds.machine, entry.id);
    }
    // A usable machine implies a known key: `key` only narrows here.
    if (machines.length >= count && key) return this.finishAll(ctx, machines, key, live, log);

    key ??= await this.createKey(ctx, log);
    this.checkAborted(ctx);
    const access = await this.access(ctx, live, log);
    while (machines.length < count) {
      this.checkAborted(ctx);
      machines.push(await this.launch(ctx, key, access, log));
    }
    return this.finishAll(ctx, machines, key, live, log);
  }

  /** Asks for one machine and records it before anything waits on it. */
  private async launch(ctx: ProviderContext, key: Key, access: LaunchSpec["access"], log: Log): Promise<Launched> {
    const name = resourceName(ctx.sessionId);
    const publicKey = await publicKeyOf(key.privateKey);
    const askedAt = performance.now();
    const record = (kind: string, id: string) => ctx.resources.record(kind, id, { name });
    const id = await this.call("launching the machine", () =>
      this.driver.launch({ name, sessionId: ctx.sessionId, keyName: key.name, publicKey, access, record }),
    );
    const meta = { ssh_port: this.settings.sshPort, key_name: key.name, name };
    await ctx.resources.record(this.driver.kinds.machine, id, meta);
    log(`launched machine ${id} (${this.settings.size}, ${this.settings.image})`);
    return { id, meta, askedAt };
  }

  /**
   * Waits for every machine at once, handing them over in the order given. The first failure
   * stops the other waits, and is thrown once they have all ended: nothing of the session is
   * still being made when the caller tears it down.
   */
  private async finishAll(ctx: ProviderContext, machines: Launched[], key: Key, live: Live, log: Log): Promise<Machine[]> {
    const stop = new AbortController();
    const each: ProviderContext = { ...ctx, signal: ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal };
    const failures: unknown[] = [];
    const ready = await Promise.all(
      machines.map((m) =>
        this.finish(each, m, key.privateKey, live, log).catch((error: unknown) => {
          failures.push(error);
          stop.abort();
          return undefined;
        }),
      ),
    );
    if (failures.length > 0) throw failures[0];
    return ready.filter((m) => m !== undefined);
  }

  /** The key to log in with, when one exists already: configured, or made or imported earlier for the session. */
  private knownKey(live: Live): Key | undefined {
    const s = this.settings;
    if (s.keyName && s.sshPrivateKey) return { name: s.keyName, privateKey: s.sshPrivateKey };
    const made = live.find((r) => r.kind === this.driver.kinds.key);
    const privateKey = typeof made?.meta.private_key === "string" ? made.meta.private_key : s.sshPrivateKey;
    if (!made || !privateKey) return undefined;
    this.scrubber.add(privateKey);
    return { name: made.id, privateKey };
  }

  private async createKey(ctx: ProviderContext, log: Log): Promise<Key> {
    const name = resourceName(ctx.sessionId);
    const configured = this.settings.sshPrivateKey;
    const publicKey = configured ? await publicKeyOf(configured) : undefined;
    const made = await this.call(publicKey ? "importing the key pair" : "creating the key pair", () =>
      this.driver.createKey({ name, sessionId: ctx.sessionId, publicKey }),
    );
    if (configured) {
      await ctx.resources.record(this.driver.kinds.key, made.id, { imported: true });
      log(`imported the configured private key as key pair ${made.id}`);
      return { name: made.id, privateKey: configured };
    }
    if (!made.privateKey) throw new BenchwrightError("provider_failed", `${this.driver.name} creating the key pair failed: no private key returned`);
    this.scrubber.add(made.privateKey);
    const privateKey = made.privateKey.trim() + "\n";
    // The lead seals meta fields named `private_key` at rest.
    await ctx.resources.record(this.driver.kinds.key, made.id, { private_key: privateKey });
    log(`created key pair ${made.id}`);
    return { name: made.id, privateKey };
  }

  /**
   * The configured firewall, left as it is (the user's own: it must let the session's machines
   * reach each other for workloads with roles, and SSH in), else the session's own, made once:
   * SSH let in from anywhere, and every protocol and port from the session's own machines only
   * (by `openAccess`, or a second firewall made by `createPeerAccess`, recorded like the first).
   */
  private async access(ctx: ProviderContext, live: Live, log: Log): Promise<LaunchSpec["access"]> {
    const configured = this.settings.securityGroup;
    if (configured) return { configured };
    const { kinds } = this.driver;
    const made = live.filter((r) => r.kind === kinds.access);
    const created =
      made.find((r) => r.meta.peers !== true)?.id ??
      (await this.createAccess(ctx, log, "creating the security group", {}, (name) =>
        this.driver.createAccess({ name, sessionId: ctx.sessionId, sshPort: this.settings.sshPort }),
      ));
    await this.call("opening the security group to SSH and to the session's machines", () => this.driver.openAccess(created, this.settings.sshPort));
    const createPeerAccess = this.driver.createPeerAccess?.bind(this.driver);
    if (createPeerAccess && !made.some((r) => r.meta.peers === true)) {
      await this.createAccess(ctx, log, "letting the session's machines reach each other", { peers: true }, (name) =>
        createPeerAccess({ name, sessionId: ctx.sessionId, access: created }),
      );
    }
    return { created };
  }

  /** Makes one firewall of the session (`meta` says which) and records it before anything waits on it. */
  private async createAccess(ctx: ProviderContext, log: Log, what: string, meta: { peers?: true }, create: (name: string) => Promise<string>): Promise<string> {
    const name = resourceName(ctx.sessionId);
    const id = await this.call(what, () => create(name));
    await ctx.resources.record(this.driver.kinds.access, id, { name, ...meta });
    log(`created security group ${id}${meta.peers ? " letting the session's machines reach each other" : ""}`);
    return id;
  }

  /**
   * Waits until the machine runs and SSH answers, then initializes it once (post_create_script).
   * A machine launched by this call says how long each wait took from its launch.
   */
  private async finish(ctx: ProviderContext, { id, meta, askedAt }: Launched, privateKey: string, live: Live, log: Log): Promise<Machine> {
    const s = this.settings;
    const since = (t: number) => (performance.now() - t) / 1000;
    const sshPort = Number(meta.ssh_port) || s.sshPort;
    const view = await pollUntil(
      async () => {
        const v = await this.call("waiting for the machine", () => this.driver.describe(id));
        if (v.state === "running") return v;
        // Just after launch a machine may not be visible yet (eventual consistency): wait on.
        if (v.state === "failed" || v.state === "gone") {
          throw new BenchwrightError(
            "provider_failed",
            `${this.driver.name}: machine ${id} ${v.state === "gone" ? "is gone" : "failed"}${v.reason ? ` (${v.reason})` : ""}`,
          );
        }
        return undefined;
      },
      {
        timeoutMs: s.stateTimeoutMs,
        intervalMs: s.pollIntervalMs,
        what: `${this.driver.name}: machine ${id} was not running`,
        signal: ctx.signal,
      },
    );
    const createSeconds = askedAt === undefined ? undefined : since(askedAt);
    const ip = view.address ?? (await this.address(ctx, id, live, log));
    log(`machine ${id} is running at ${ip}; waiting for SSH on port ${sshPort}`);
    await waitForSsh(ip, sshPort, {
      timeoutMs: s.sshTimeoutMs,
      intervalMs: s.sshPollIntervalMs,
      attempts: s.sshAttempts,
      signal: ctx.signal,
    });
    const sshReadySeconds = askedAt === undefined ? undefined : since(askedAt);
    log(`SSH answers on ${ip}:${sshPort}`);
    const machine: Machine = {
      id,
      ip,
      ...(view.privateAddress ? { privateIp: view.privateAddress } : {}),
      platform: s.platform,
      workRoot: s.workRoot,
      allowInstall: true,
      ssh: { host: ip, port: sshPort, username: s.vmUser, privateKey },
      placement: placementOf(view.placement, s),
      ...(createSeconds !== undefined && sshReadySeconds !== undefined ? { boot: { createSeconds, sshReadySeconds } } : {}),
    };
    if (s.postCreateScript && meta.post_created !== true) {
      await runPostCreate(ctx, machine, s.postCreateScript, s.postCreateTimeoutMs, log);
      // Recorded on the machine's own entry: a later prepare, in any process, does not run it again.
      await ctx.resources.record(this.driver.kinds.machine, id, { ...meta, post_created: true });
    }
    return machine;
  }

  /** An address attached to the machine earlier for the session, else a new one. */
  private async address(ctx: ProviderContext, machineId: string, live: Live, log: Log): Promise<string> {
    const { kinds } = this.driver;
    const recorded = live.find((r) => r.kind === kinds.address && (r.meta.machine_id ?? r.meta.server_id) === machineId && typeof r.meta.address === "string");
    if (recorded) return recorded.meta.address as string;
    const create = this.driver.createAddress?.bind(this.driver);
    if (!create || !kinds.address) throw new BenchwrightError("provider_failed", `${this.driver.name}: machine ${machineId} has no address`);
    const made = await this.call("attaching an address", () => create(machineId, ctx.sessionId));
    await ctx.resources.record(kinds.address, made.id, { address: made.address, machine_id: machineId });
    log(`attached address ${made.address} to machine ${machineId}`);
    return made.address;
  }

  /**
   * Destroys one resource and waits until it is gone: a machine until the cloud no longer
   * shows it, anything else until it is no longer in use. Bounded, and deaf to the step's
   * signal: a teardown that an abort set off must finish.
   */
  private async destroyOne(kind: string, id: string): Promise<void> {
    const s = this.settings;
    const bounds = { timeoutMs: s.stateTimeoutMs, intervalMs: s.pollIntervalMs };
    await pollUntil(async () => ((await this.call(`deleting ${kind} ${id}`, () => this.driver.destroy(kind, id))) === "gone" ? true : undefined), {
      ...bounds,
      what: `${this.driver.name}: ${kind} ${id} stayed in use`,
    });
    if (kind !== this.driver.kinds.machine) return;
    await pollUntil(
      async () => {
        const view: MachineView = await this.call("waiting for a machine to go", () => this.driver.describe(id));
        return view.state === "gone" || view.state === "unseen" ? true : undefined;
      },
      { ...bounds, what: `${this.driver.name}: machine ${id} was not gone` },
    );
  }

  /** Addresses first, machines next (a firewall or key in use cannot go), then their parts, then firewalls, then keys. */
  private inTeardownOrder<T extends { kind: string }>(resources: T[]): T[] {
    const k = this.driver.kinds;
    const order = [k.address, k.machine, ...(k.parts ?? []), k.access, k.key];
    return resources.filter((r) => order.includes(r.kind)).sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  }

  /** Every step is tried; one that fails does not keep the others from running. */
  private async teardown(ctx: ProviderContext, log: Log): Promise<void> {
    const attempts = new Attempts(this.scrubber);
    for (const r of this.inTeardownOrder(await ctx.resources.live())) {
      await attempts.run(`deleting ${r.kind} ${r.id}`, async () => {
        await this.destroyOne(r.kind, r.id);
        await ctx.resources.markDestroyed(r.kind, r.id);
        log(`deleted ${r.kind} ${r.id}`);
      });
    }
    attempts.throwIfAny();
  }
}

/** What the cloud said of the machine, the configuration standing in for what it did not say (an image's name, the region). */
function placementOf(said: MachinePlacement | undefined, s: CloudSettings): MachinePlacement {
  const placement = { image: said?.image ?? s.image, instanceType: said?.instanceType ?? s.size, zone: said?.zone ?? s.region };
  return Object.fromEntries(Object.entries(placement).filter(([, v]) => v)) as MachinePlacement;
}
