import { createHmac, randomBytes } from "node:crypto";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.js";
import { RoundTripCounter, type RoundTrips } from "./round-trips.js";
import { SshConnectionSet } from "./ssh-connection-set.js";
import type { ExecOptions, ExecResult, HostKeyStore, SshTarget, Transport } from "./transport.js";
import { TransportError } from "./transport-error.js";

export interface SshPoolOptions {
  /** Where host key fingerprints are remembered (trust on first use). */
  hostKeys: HostKeyStore;
  /** Time for the TCP connect and SSH handshake; default 20 s. */
  readyTimeoutMs?: number;
  /** Default 10 s; a dead peer is noticed after interval × countMax. */
  keepaliveIntervalMs?: number;
  /** Default 3. */
  keepaliveCountMax?: number;
  /**
   * Channels open at once per connection; default 8, below OpenSSH's MaxSessions of 10 (the
   * server frees a closed channel a little after it said so). A refused channel lowers it.
   */
  maxChannelsPerConnection?: number;
  /** Connections per target and credential; default 8. Operations beyond what they grant queue. */
  maxConnectionsPerTarget?: number;
  /** A connection without a channel for this long is closed; default 60 s. */
  idleTimeoutMs?: number;
  /** Handshake attempts per connection; default 6 tries from 250 ms doubling to 8 s. */
  reconnect?: Partial<BackoffOptions>;
}

/**
 * Pooled ssh2 connections, per target (`user@host:port`) AND credential (key and password):
 * a connection authenticated with one credential never serves a caller holding another, and
 * a credential that fails touches nobody else's connections. Connections open on demand, as many as the channels in
 * use need (up to a limit), and close when idle.
 */
export class SshPool {
  readonly #sets = new Map<string, SshConnectionSet>();
  readonly #options: SshPoolOptions;
  /** Keys the credential digests: a password is guessable from a plain hash of it, not from this. */
  readonly #digestKey = randomBytes(32);
  #connectionsOpened = 0;
  readonly #roundTrips = new RoundTripCounter();
  #closed = false;

  constructor(options: SshPoolOptions) {
    this.#options = options;
  }

  /** TCP connections that reached the ready state since the pool was made, reconnections included. */
  get connectionsOpened(): number {
    return this.#connectionsOpened;
  }

  /** Channels, commands and SFTP operations asked of every host since the pool was made. */
  get roundTrips(): RoundTrips {
    return this.#roundTrips.snapshot();
  }

  /** Connections alive now, over every target and credential. */
  get connectionsOpen(): number {
    let n = 0;
    for (const set of this.#sets.values()) n += set.connections.filter((c) => !c.dead).length;
    return n;
  }

  get(target: SshTarget, machineKey: string): Transport {
    if (this.#closed) throw new TransportError("The SSH pool is closed", { retryable: false });
    const key = poolKey(target, this.#digestKey);
    return new PooledTransport(describe(target), machineKey, () => this.#setFor(target, key));
  }

  /** The connections of `target`'s credential, made anew when the last ones closed. */
  #setFor(target: SshTarget, key: string): SshConnectionSet {
    if (this.#closed) throw new TransportError("The SSH pool is closed", { retryable: false });
    let set = this.#sets.get(key);
    if (!set) {
      const o = this.#options;
      const made: SshConnectionSet = new SshConnectionSet(target, describe(target), {
        hostKeys: o.hostKeys,
        readyTimeoutMs: o.readyTimeoutMs ?? 20_000,
        keepaliveIntervalMs: o.keepaliveIntervalMs ?? 10_000,
        keepaliveCountMax: o.keepaliveCountMax ?? 3,
        maxChannels: o.maxChannelsPerConnection ?? 8,
        maxConnections: o.maxConnectionsPerTarget ?? 8,
        idleTimeoutMs: o.idleTimeoutMs ?? 60_000,
        roundTrips: this.#roundTrips,
        backoff: { ...DEFAULT_BACKOFF, ...o.reconnect },
        onConnected: () => this.#connectionsOpened++,
        // Forget the set (and the key it holds) once nothing uses it.
        onEmpty: () => {
          if (this.#sets.get(key) === made) this.#sets.delete(key);
        },
      });
      set = made;
      this.#sets.set(key, set);
    }
    return set;
  }

  /** Closes every connection; handles given earlier fail from then on. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const set of this.#sets.values()) set.close();
    this.#sets.clear();
  }
}

function describe(target: SshTarget): string {
  return `${target.username}@${target.host}:${target.port}`;
}

/**
 * Target and a keyed digest of the whole credential (key and password, each marked as present
 * or not): the secrets themselves are never kept as a key, nor logged.
 */
function poolKey(target: SshTarget, digestKey: Buffer): string {
  const digest = createHmac("sha256", digestKey);
  for (const [name, secret] of [
    ["key", target.privateKey],
    ["password", target.password],
  ] as const) {
    digest
      .update(secret === undefined ? `${name}:none\0` : `${name}:${Buffer.byteLength(secret)}:`)
      .update(secret ?? "")
      .update("\0");
  }
  return `${describe(target)}#${digest.digest("base64url")}`;
}

/** A caller's view of the pooled connections of its target and credential. */
class PooledTransport implements Transport {
  constructor(
    readonly description: string,
    readonly machineKey: string,
    /** Looked up at each use: the set is dropped when idle and made again when needed. */
    readonly connections: () => SshConnectionSet,
  ) {}
  async exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    return this.connections().exec(this.machineKey, command, options);
  }
  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    return this.connections().writeFile(this.machineKey, path, data, mode);
  }
  /** The connections are the pool's: they stay open for other handles until idle or the pool closes. */
  release(): void {}
}
