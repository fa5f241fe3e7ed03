import type { Client } from "ssh2";
import { sleep } from "./backoff.js";
import { SshConnection, type ChannelLease } from "./ssh-connection.js";
import { ChannelRefused, NotStarted } from "./ssh-connection-errors.js";
import type { SshConnectionOptions } from "./ssh-connection-options.js";
import type { ExecOptions, ExecResult, SshTarget } from "./transport.js";
import { isRetryableTransportError, TransportError } from "./transport-error.js";

export interface SshConnectionSetOptions extends SshConnectionOptions {
  /** Connections to open at most; channels beyond what they grant wait their turn. */
  maxConnections: number;
  /** Called each time a connection becomes ready (for counting). */
  onConnected(): void;
  /** Called when the set holds no connection and nobody is using or waiting for it. */
  onEmpty(): void;
}

/** Refusals of a channel in a row (the limit coming down each time) before an operation gives up. */
const MAX_REFUSALS = 8;

interface Waiter {
  grant(lease: ChannelLease): void;
  fail(error: Error): void;
}

/**
 * The connections of ONE credential to one target: they never serve another credential.
 * Each operation leases a channel slot on a connection with room (a server grants only so
 * many channels per connection: OpenSSH's MaxSessions), the set opens another connection
 * when all are full, and past `maxConnections` operations queue.
 */
export class SshConnectionSet {
  #connections: SshConnection[] = [];
  readonly #waiting: Waiter[] = [];
  /** Machines that used the set: a new connection checks the host key for each. */
  readonly #machineKeys = new Set<string>();
  /** Operations under way, waiting included. */
  #busy = 0;
  #closed = false;

  constructor(
    readonly target: SshTarget,
    /** `user@host:port`: never the credential. */
    readonly description: string,
    readonly options: SshConnectionSetOptions,
  ) {}

  get connections(): readonly SshConnection[] {
    return this.#connections;
  }

  /** `machineKey` names the host key record to check, since machines of several sessions may share a host. */
  exec(machineKey: string, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return this.#withChannel(machineKey, options.signal, (connection, client, lease) => connection.exec(client, lease, command, options));
  }

  async writeFile(machineKey: string, path: string, data: string | Buffer, mode?: number): Promise<void> {
    // SFTP paths are relative to the login home.
    const remote = path.startsWith("~/") ? path.slice(2) : path;
    const write = () => this.#withChannel(machineKey, undefined, (connection, client, lease) => connection.writeFile(client, lease, remote, data, mode));
    try {
      await write();
    } catch (e) {
      // Writing a whole file again is harmless, so a write cut by a drop is retried once.
      if (!isRetryableTransportError(e)) throw e;
      await write();
    }
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0)) waiter.fail(this.#closedError());
    for (const connection of this.#connections) connection.close();
    this.#connections = [];
  }

  #closedError(): TransportError {
    return new TransportError(`Connection to ${this.description} is closed`, { retryable: false });
  }

  /**
   * Runs `op` on a leased channel. An operation that could not start (a connection that
   * died before it, a refused channel) is tried again; one that started is not.
   */
  async #withChannel<T>(
    machineKey: string,
    signal: AbortSignal | undefined,
    op: (connection: SshConnection, client: Client, lease: ChannelLease) => Promise<T>,
  ): Promise<T> {
    this.#machineKeys.add(machineKey);
    this.#busy++;
    try {
      let refusals = 0;
      let restarts = 0;
      for (;;) {
        const lease = await this.#lease(signal);
        try {
          const client = await lease.connection.client(machineKey, signal).catch((e: unknown) => {
            lease.release();
            throw e;
          });
          return await op(lease.connection, client, lease);
        } catch (e) {
          if (e instanceof ChannelRefused && ++refusals <= MAX_REFUSALS) {
            await sleep(Math.min(2000, 50 * 2 ** (refusals - 1)), signal);
            continue;
          }
          if (e instanceof NotStarted && ++restarts <= 1) continue;
          throw e;
        }
      }
    } finally {
      this.#busy--;
      this.#settle();
    }
  }

  #lease(signal: AbortSignal | undefined): Promise<ChannelLease> {
    if (this.#closed) return Promise.reject(this.#closedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#waiting.length === 0) {
      const lease = this.#take();
      if (lease) return Promise.resolve(lease);
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiting.indexOf(waiter);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        grant: (lease) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(lease);
        },
        fail: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#pump();
    });
  }

  /** A slot on the oldest connection with room (so that extra connections fall idle and close), else on a new one. */
  #take(): ChannelLease | undefined {
    this.#connections = this.#connections.filter((c) => !c.dead);
    const roomy = this.#connections.find((c) => c.free > 0);
    if (roomy) return roomy.lease();
    if (this.#closed || this.#connections.length >= this.options.maxConnections) return undefined;
    // One handshake at a time: the connection being made grants its slots before it is ready,
    // and a burst of handshakes is what MaxStartups refuses.
    if (this.#connections.some((c) => c.connecting)) return undefined;
    const connection = new SshConnection(this.target, this.description, this.options, {
      machineKeys: () => this.#machineKeys,
      connected: () => this.options.onConnected(),
      changed: () => this.#changed(),
    });
    this.#connections.push(connection);
    return connection.lease();
  }

  #pump(): void {
    while (this.#waiting.length > 0) {
      const lease = this.#take();
      if (!lease) return;
      this.#waiting.shift()!.grant(lease);
    }
  }

  #changed(): void {
    if (this.#closed) return;
    this.#pump();
    this.#settle();
  }

  #settle(): void {
    if (this.#busy > 0 || this.#waiting.length > 0) return;
    this.#connections = this.#connections.filter((c) => !c.dead);
    if (this.#connections.length === 0) this.options.onEmpty();
  }
}
