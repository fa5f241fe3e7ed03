import type { Client, ClientChannel, SFTPWrapper } from "ssh2";
import { backoffDelay, jittered, sleep } from "./backoff.js";
import { checkHostKey } from "./host-key.js";
import { ChannelRefused, NotStarted } from "./ssh-connection-errors.js";
import type { SshConnectionEvents, SshConnectionOptions } from "./ssh-connection-options.js";
import { openSshClient } from "./ssh-handshake.js";
import type { ExecOptions, ExecResult, SshTarget } from "./transport.js";
import { TransportError } from "./transport-error.js";

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

  #connectOnce(): Promise<Client> {
    return openSshClient(this.target, this.description, this.options, async (key) => {
      const machineKeys = [...this.events.machineKeys()];
      const mismatch = await this.#checkAll(machineKeys, key);
      if (!mismatch) {
        this.#hostKey = key;
        for (const k of machineKeys) this.#verifiedFor.add(k);
      }
      return mismatch;
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
        const counted = this.options.roundTrips;
        if (counted) {
          counted.channels++;
          counted.execs++;
        }
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
      const counted = this.options.roundTrips;
      try {
        if (counted) counted.channels++;
        client.sftp((e, s) => {
          if (e) return finish(this.#openFailed(client, lease, e, "start SFTP"));
          s.once("close", lease.release);
          sftp = s;
          if (counted) counted.sftp++;
          s.writeFile(path, data, mode === undefined ? {} : { mode }, (we) => {
            if (we) return failed(we);
            // The open mode is masked by the umask and ignored for a file that existed.
            if (mode === undefined) return finish();
            if (counted) counted.sftp++;
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
