import type { Client, ClientChannel, ConnectConfig, SFTPWrapper } from "ssh2";
import { loadSsh2 } from "./ssh2-module.js";
import { backoffDelay, sleep, type BackoffOptions } from "./backoff.js";
import { checkHostKey } from "./host-key.js";
import type { ExecOptions, ExecResult, HostKeyStore, SshTarget } from "./transport.js";
import { TransportError } from "./transport-error.js";

export interface SshConnectionOptions {
  hostKeys: HostKeyStore;
  readyTimeoutMs: number;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  /** Channels open at once, until the server shows that it allows fewer. */
  maxChannels: number;
  /** Handshake attempts: a server past its MaxStartups drops new connections at random. */
  backoff: BackoffOptions;
  /** A connection without a channel for this long is closed. */
  idleTimeoutMs: number;
}

/** What a connection tells the set of connections it belongs to. */
export interface SshConnectionEvents {
  /** Every machine whose host key record a new connection must match. */
  machineKeys(): Iterable<string>;
  /** The handshake succeeded (for counting). */
  connected(): void;
  /** Channel slots were freed, the connection became ready, or it died. */
  changed(): void;
}

/** Marks a failure that happened before the remote command could start: safe to retry. */
export class NotStarted extends TransportError {}

/** The server refused to open a channel (OpenSSH: MaxSessions reached) on a live connection: try again. */
export class ChannelRefused extends TransportError {}

/** A channel slot on a connection: held until the server has closed the channel, not merely until we asked it to. */
export interface ChannelLease {
  readonly connection: SshConnection;
  release(): void;
}

/**
 * When a request on a channel that did open fails, ssh2 closes the channel without handing it
 * to us; the server frees it a round trip later.
 */
const CLOSING_CHANNEL_MS = 1000;

/**
 * One ssh2 connection for one credential: it connects (with backoff) when made, counts the
 * channels the server holds open for it, and is never reopened: once it is dead the set of
 * connections it belongs to makes another. Commands in flight when it drops fail (retryable);
 * they are never re-run here, since nobody can know whether they had side effects.
 */
export class SshConnection {
  #state: "connecting" | "ready" | "dead" = "connecting";
  #client: Client | undefined;
  readonly #ready: Promise<Client>;
  /** Channels asked for and not yet closed by the server. */
  #open = 0;
  #limit: number;
  /** The key the server offered, and the machines it has been checked against. */
  #hostKey: Buffer | undefined;
  readonly #verifiedFor = new Set<string>();
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly target: SshTarget,
    readonly description: string,
    readonly options: SshConnectionOptions,
    readonly events: SshConnectionEvents,
  ) {
    this.#limit = options.maxChannels;
    this.#ready = this.#connectWithBackoff();
    // Whoever leased a channel on it learns of a failure through client().
    this.#ready.catch(() => undefined);
  }

  get connecting(): boolean {
    return this.#state === "connecting";
  }

  get dead(): boolean {
    return this.#state === "dead";
  }

  /** Channels it may still open now. */
  get free(): number {
    return this.#state === "dead" ? 0 : Math.max(0, this.#limit - this.#open);
  }

  get openChannels(): number {
    return this.#open;
  }

  get channelLimit(): number {
    return this.#limit;
  }

  /** Reserves a channel slot; the caller checked `free`. */
  lease(): ChannelLease {
    this.#open++;
    clearTimeout(this.#idleTimer);
    let released = false;
    return {
      connection: this,
      release: () => {
        if (released) return;
        released = true;
        this.#open--;
        if (this.#open === 0 && this.#state === "ready") this.#armIdleTimer();
        this.events.changed();
      },
    };
  }

  /** The live client, once its host key has been checked for `machineKey`. */
  async client(machineKey: string, signal?: AbortSignal): Promise<Client> {
    const client = await abortable(this.#ready, signal);
    if (this.#state === "dead" || this.#client !== client) throw new NotStarted(`Connection to ${this.description} lost`, { retryable: true });
    if (!this.#verifiedFor.has(machineKey) && this.#hostKey) {
      const mismatch = await checkHostKey(this.options.hostKeys, machineKey, this.description, this.#hostKey);
      if (mismatch) throw mismatch;
      this.#verifiedFor.add(machineKey);
    }
    return client;
  }

  close(): void {
    const client = this.#client;
    this.#die();
    client?.end();
  }

  #die(): void {
    if (this.#state === "dead") return;
    this.#state = "dead";
    this.#client = undefined;
    clearTimeout(this.#idleTimer);
    this.events.changed();
  }

  #armIdleTimer(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      if (this.#open === 0) this.close();
    }, this.options.idleTimeoutMs);
    this.#idleTimer.unref();
  }

  async #connectWithBackoff(): Promise<Client> {
    const { backoff } = this.options;
    let last: unknown;
    try {
      for (let attempt = 1; attempt <= backoff.attempts; attempt++) {
        if (attempt > 1) await sleep(jittered(backoffDelay(backoff, attempt - 1)));
        if (this.dead) break;
        try {
          const client = await this.#connectOnce();
          if (this.dead) {
            client.end();
            break;
          }
          this.#client = client;
          this.#state = "ready";
          client.on("close", () => {
            if (this.#client === client) this.#die();
          });
          if (this.#open === 0) this.#armIdleTimer();
          this.events.connected();
          this.events.changed();
          return client;
        } catch (e) {
          if (!(e instanceof TransportError && e.retryable)) throw e;
          last = e;
        }
      }
    } catch (e) {
      this.#die();
      throw e;
    }
    const closed = this.dead;
    this.#die();
    if (closed) throw new NotStarted(`Connection to ${this.description} is closed`, { retryable: true });
    throw new TransportError(`Cannot connect to ${this.description} after ${backoff.attempts} attempts: ${(last as Error)?.message}`, {
      retryable: true,
      cause: last,
    });
  }

  async #connectOnce(): Promise<Client> {
    const { Client } = await loadSsh2();
    return new Promise((resolve, reject) => {
      const client = new Client();
      let ready = false;
      let refusal: Error | undefined;
      const config: ConnectConfig = {
        host: this.target.host,
        port: this.target.port,
        username: this.target.username,
        // ssh2 offers what it is given: password first, then the key.
        ...(this.target.privateKey !== undefined ? { privateKey: this.target.privateKey } : {}),
        ...(this.target.password !== undefined ? { password: this.target.password } : {}),
        readyTimeout: this.options.readyTimeoutMs,
        keepaliveInterval: this.options.keepaliveIntervalMs,
        keepaliveCountMax: this.options.keepaliveCountMax,
        // Without a verifier ssh2 accepts any host key.
        hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
          const machineKeys = [...this.events.machineKeys()];
          this.#checkAll(machineKeys, key).then(
            (mismatch) => {
              refusal = mismatch;
              if (!mismatch) {
                this.#hostKey = key;
                for (const k of machineKeys) this.#verifiedFor.add(k);
              }
              verify(mismatch === undefined);
            },
            (e: unknown) => {
              refusal = new TransportError(`Cannot check the host key of ${this.description}: ${(e as Error).message}`, {
                retryable: false,
                cause: e,
              });
              verify(false);
            },
          );
        },
      };
      // Small packets both ways (a command, its exit status, window adjusts): with Nagle's
      // algorithm each waits for the peer's delayed ACK.
      client.on("connect", () => client.setNoDelay(true));
      // Each operation in flight listens for the connection's close.
      client.setMaxListeners(0);
      client.on("ready", () => {
        ready = true;
        resolve(client);
      });
      client.on("error", (e: Error & { level?: string }) => {
        if (ready) return; // in-flight operations learn of it through 'close'
        if (refusal) return reject(refusal);
        // ssh2's messages say nothing of keys; the level tells an auth refusal from a network failure.
        const retryable = e.level !== "client-authentication";
        reject(new TransportError(`Cannot connect to ${this.description}: ${e.message}`, { retryable, cause: e }));
      });
      client.on("close", () => {
        // A server past MaxStartups closes new connections during the handshake.
        if (!ready) reject(refusal ?? new TransportError(`Connection to ${this.description} closed during the handshake`, { retryable: true }));
      });
      try {
        client.connect(config);
      } catch (e) {
        // A malformed private key throws here; its message names the format, not the key.
        reject(new TransportError(`Cannot connect to ${this.description}: ${(e as Error).message}`, { retryable: false, cause: e }));
      }
    });
  }

  async #checkAll(machineKeys: string[], key: Buffer): Promise<Error | undefined> {
    for (const machineKey of machineKeys) {
      const mismatch = await checkHostKey(this.options.hostKeys, machineKey, this.description, key);
      if (mismatch) return mismatch;
    }
    return undefined;
  }

  #notStarted(): NotStarted {
    return new NotStarted(`Connection to ${this.description} lost before the operation started`, { retryable: true });
  }

  #dropped(what: string): TransportError {
    return new TransportError(`Connection to ${this.description} lost ${what}`, { retryable: true });
  }

  /**
   * Why a channel could not be opened on `client`. A refusal on a live connection means the
   * server allows fewer channels than were open: the limit comes down to what it granted.
   */
  #openFailed(client: Client, lease: ChannelLease, e: Error & { reason?: unknown }, what: string): TransportError {
    if (this.#client !== client) {
      lease.release();
      return new NotStarted(e.message, { retryable: true });
    }
    if (e.reason !== undefined) {
      this.#limit = Math.max(1, Math.min(this.#limit, this.#open - 1));
      lease.release();
      return new ChannelRefused(`${this.description} refused a channel: ${e.message}`, { retryable: true, cause: e });
    }
    setTimeout(lease.release, CLOSING_CHANNEL_MS).unref();
    return new TransportError(`Cannot ${what} on ${this.description}: ${e.message}`, { retryable: true, cause: e });
  }

  /** Runs a command on a channel of `lease`, which it releases once the server has closed the channel. */
  exec(client: Client, lease: ChannelLease, command: string, options: ExecOptions): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      const { signal } = options;
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let stream: ClientChannel | undefined;
      let settled = false;
      const finish = (error: unknown, result?: ExecResult) => {
        if (settled) return;
        settled = true;
        client.removeListener("close", onClientClose);
        signal?.removeEventListener("abort", onAbort);
        if (error) reject(error);
        else resolve(result!);
      };
      const onClientClose = () => finish(stream ? this.#dropped("while a command ran") : this.#notStarted());
      const onAbort = () => {
        stream?.close();
        finish(signal!.reason);
      };
      if (signal?.aborted) {
        lease.release();
        return finish(signal.reason);
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      client.once("close", onClientClose);
      try {
        client.exec(command, (e, s) => {
          if (e) return finish(this.#openFailed(client, lease, e, "run a command"));
          s.once("close", lease.release);
          if (settled) {
            s.close();
            return;
          }
          stream = s;
          s.on("data", (chunk: Buffer) => (options.onStdout ? options.onStdout(chunk) : out.push(chunk)));
          s.stderr.on("data", (chunk: Buffer) => (options.onStderr ? options.onStderr(chunk) : err.push(chunk)));
          s.on("close", (code?: number | null, sig?: string | null) => {
            // Neither an exit status nor an exit signal: the channel was torn down under the command.
            if (code === undefined && (sig === undefined || sig === null)) {
              return finish(this.#dropped("before the command reported its exit status"));
            }
            finish(undefined, {
              code: code ?? null,
              signal: sig ?? null,
              stdout: Buffer.concat(out).toString("utf8"),
              stderr: Buffer.concat(err).toString("utf8"),
            });
          });
        });
      } catch (e) {
        // ssh2 throws "Not connected" when the socket went away under us.
        lease.release();
        if (this.#client === client) this.close();
        finish(new NotStarted((e as Error).message, { retryable: true }));
      }
    });
  }

  /** Writes a file over an SFTP channel of `lease` (SFTP is a channel too: released once the server closed it). */
  writeFile(client: Client, lease: ChannelLease, path: string, data: string | Buffer, mode: number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      let sftp: SFTPWrapper | undefined;
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        client.removeListener("close", onClientClose);
        sftp?.end();
        if (error) reject(error);
        else resolve();
      };
      const onClientClose = () => finish(sftp ? this.#dropped("while writing a file") : this.#notStarted());
      const failed = (e: Error) =>
        finish(
          this.#client === client
            ? new TransportError(`Cannot write ${path} on ${this.description}: ${e.message}`, { retryable: false, cause: e })
            : this.#dropped("while writing a file"),
        );
      client.once("close", onClientClose);
      try {
        client.sftp((e, s) => {
          if (e) return finish(this.#openFailed(client, lease, e, "start SFTP"));
          s.once("close", lease.release);
          sftp = s;
          s.writeFile(path, data, mode === undefined ? {} : { mode }, (we) => {
            if (we) return failed(we);
            // The open mode is masked by the umask and ignored for a file that existed.
            if (mode === undefined) return finish();
            s.chmod(path, mode, (ce) => (ce ? failed(ce) : finish()));
          });
        });
      } catch (e) {
        lease.release();
        if (this.#client === client) this.close();
        finish(new NotStarted((e as Error).message, { retryable: true }));
      }
    });
  }
}

/** Waits for `promise`, or rejects when `signal` aborts: the promise is shared, so one caller's abort must not cancel it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

/** Between half and all of `ms`: clients refused together must not all come back together. */
function jittered(ms: number): number {
  return ms / 2 + Math.random() * (ms / 2);
}
