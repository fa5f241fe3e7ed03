import { DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.js";
import { SshConnection } from "./ssh-connection.js";
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
  /** Channels open at once per connection; default 8, below OpenSSH's MaxSessions of 10. */
  maxChannelsPerConnection?: number;
  /** Reconnection attempts; default 6 tries from 250 ms doubling to 8 s. */
  reconnect?: Partial<BackoffOptions>;
}

/**
 * One ssh2 connection per target (`user@host:port`), shared by every handle `get` gives.
 * Connections open on first use and reopen with backoff after a drop.
 */
export class SshPool {
  readonly #connections = new Map<string, SshConnection>();
  readonly #options: SshPoolOptions;
  #connectionsOpened = 0;
  #closed = false;

  constructor(options: SshPoolOptions) {
    this.#options = options;
  }

  /** TCP connections that reached the ready state since the pool was made, reconnections included. */
  get connectionsOpened(): number {
    return this.#connectionsOpened;
  }

  get(target: SshTarget, machineKey: string): Transport {
    if (this.#closed) throw new TransportError("The SSH pool is closed", { retryable: false });
    const key = `${target.username}@${target.host}:${target.port}`;
    let connection = this.#connections.get(key);
    if (!connection) {
      const o = this.#options;
      connection = new SshConnection(target, {
        hostKeys: o.hostKeys,
        readyTimeoutMs: o.readyTimeoutMs ?? 20_000,
        keepaliveIntervalMs: o.keepaliveIntervalMs ?? 10_000,
        keepaliveCountMax: o.keepaliveCountMax ?? 3,
        maxChannels: o.maxChannelsPerConnection ?? 8,
        backoff: { ...DEFAULT_BACKOFF, ...o.reconnect },
        onConnected: () => this.#connectionsOpened++,
      });
      this.#connections.set(key, connection);
    }
    return new PooledTransport(connection, machineKey);
  }

  /** Closes every connection; handles given earlier fail from then on. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const connection of this.#connections.values()) connection.close();
    this.#connections.clear();
  }
}

/** A caller's view of a pooled connection. */
class PooledTransport implements Transport {
  readonly description: string;
  constructor(
    readonly connection: SshConnection,
    readonly machineKey: string,
  ) {
    this.description = connection.description;
  }
  exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    return this.connection.exec(this.machineKey, command, options);
  }
  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    return this.connection.writeFile(this.machineKey, path, data, mode);
  }
  /** The connection is the pool's: it stays open for other handles until the pool closes. */
  release(): void {}
}
