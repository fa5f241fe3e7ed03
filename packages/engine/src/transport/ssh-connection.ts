import { Client, type ClientChannel, type ConnectConfig, type SFTPWrapper } from "ssh2";
import { backoffDelay, sleep, type BackoffOptions } from "./backoff.js";
import { ChannelLimiter } from "./channel-limiter.js";
import { checkHostKey } from "./host-key.js";
import type { ExecOptions, ExecResult, HostKeyStore, SshTarget } from "./transport.js";
import { TransportError } from "./transport-error.js";

export interface SshConnectionOptions {
  hostKeys: HostKeyStore;
  readyTimeoutMs: number;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  maxChannels: number;
  backoff: BackoffOptions;
  /** Called each time a TCP connection becomes ready (for counting). */
  onConnected?: () => void;
}

/** Marks a failure that happened before the remote command could start: safe to retry. */
class NotStarted extends TransportError {}

/**
 * One target's connection: opened lazily, reopened with backoff after it drops, shared by
 * every handle of that target. Commands in flight when it drops fail (retryable); they are
 * never re-run here, since the engine cannot know whether they had side effects.
 */
export class SshConnection {
  readonly description: string;
  readonly #limiter: ChannelLimiter;
  #client: Client | undefined;
  /** The key the live connection's server offered, and the machines it has been checked for. */
  #hostKey: Buffer | undefined;
  readonly #verifiedFor = new Set<string>();
  #connecting: Promise<Client> | undefined;
  /** Every machine that has used this connection: a reconnection checks the key for each. */
  readonly #machineKeys = new Set<string>();
  #closed = false;

  constructor(
    readonly target: SshTarget,
    readonly options: SshConnectionOptions,
  ) {
    this.description = `${target.username}@${target.host}:${target.port}`;
    this.#limiter = new ChannelLimiter(options.maxChannels);
  }

  get activeChannels(): number {
    return this.#limiter.active;
  }

  /** `machineKey` names the host key record to check, since machines of several sessions may share a host. */
  async exec(machineKey: string, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const release = await this.#limiter.acquire(options.signal);
    try {
      return await this.#onceMore(machineKey, options.signal, (client) => this.#execOn(client, command, options));
    } finally {
      release();
    }
  }

  async writeFile(machineKey: string, path: string, data: string | Buffer, mode?: number): Promise<void> {
    // SFTP paths are relative to the login home.
    const remote = path.startsWith("~/") ? path.slice(2) : path;
    const release = await this.#limiter.acquire();
    try {
      try {
        await this.#onceMore(machineKey, undefined, (client) => this.#writeOn(client, remote, data, mode));
      } catch (e) {
        // Writing a whole file again is harmless, so a write cut by a drop is retried once.
        if (!(e instanceof TransportError && e.retryable)) throw e;
        await this.#onceMore(machineKey, undefined, (client) => this.#writeOn(client, remote, data, mode));
      }
    } finally {
      release();
    }
  }

  close(): void {
    this.#closed = true;
    this.#client?.end();
    this.#client = undefined;
  }

  /** Runs `op` on a live client; if the connection turns out dead before `op` started, reconnects and tries once more. */
  async #onceMore<T>(machineKey: string, signal: AbortSignal | undefined, op: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await op(await this.#verified(machineKey, signal));
    } catch (e) {
      if (!(e instanceof NotStarted)) throw e;
      return await op(await this.#verified(machineKey, signal));
    }
  }

  async #verified(machineKey: string, signal?: AbortSignal): Promise<Client> {
    this.#machineKeys.add(machineKey);
    const client = await this.#live(signal);
    if (!this.#verifiedFor.has(machineKey) && this.#hostKey) {
      const mismatch = await checkHostKey(this.options.hostKeys, machineKey, this.description, this.#hostKey);
      if (mismatch) throw mismatch;
      this.#verifiedFor.add(machineKey);
    }
    return client;
  }

  #live(signal?: AbortSignal): Promise<Client> {
    if (this.#closed) return Promise.reject(new TransportError(`Connection to ${this.description} is closed`, { retryable: false }));
    if (this.#client) return Promise.resolve(this.#client);
    // Shared by all callers, so one caller's abort must not cancel it: only its wait.
    this.#connecting ??= this.#connectWithBackoff().finally(() => (this.#connecting = undefined));
    if (!signal) return this.#connecting;
    return Promise.race([
      this.#connecting,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
    ]);
  }

  async #connectWithBackoff(): Promise<Client> {
    const { backoff } = this.options;
    let last: unknown;
    for (let attempt = 1; attempt <= backoff.attempts; attempt++) {
      if (attempt > 1) await sleep(backoffDelay(backoff, attempt - 1));
      if (this.#closed) break;
      try {
        const client = await this.#connectOnce();
        if (this.#closed) {
          client.end();
          break;
        }
        this.#client = client;
        this.options.onConnected?.();
        return client;
      } catch (e) {
        if (!(e instanceof TransportError && e.retryable)) throw e;
        last = e;
      }
    }
    if (this.#closed) throw new TransportError(`Connection to ${this.description} is closed`, { retryable: false });
    throw new TransportError(
      `Cannot connect to ${this.description} after ${backoff.attempts} attempts: ${(last as Error)?.message}`,
      { retryable: true, cause: last },
    );
  }

  #connectOnce(): Promise<Client> {
    return new Promise((resolve, reject) => {
      const client = new Client();
      let ready = false;
      let refusal: Error | undefined;
      const config: ConnectConfig = {
        host: this.target.host,
        port: this.target.port,
        username: this.target.username,
        privateKey: this.target.privateKey,
        readyTimeout: this.options.readyTimeoutMs,
        keepaliveInterval: this.options.keepaliveIntervalMs,
        keepaliveCountMax: this.options.keepaliveCountMax,
        // Without a verifier ssh2 accepts any host key.
        hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
          this.#checkAll(key).then(
            (mismatch) => {
              refusal = mismatch;
              if (!mismatch) {
                this.#hostKey = key;
                this.#verifiedFor.clear();
                for (const k of this.#machineKeys) this.#verifiedFor.add(k);
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
      const gone = () => {
        if (this.#client === client) this.#client = undefined;
      };
      client.on("ready", () => {
        ready = true;
        resolve(client);
      });
      client.on("error", (e: Error & { level?: string }) => {
        gone();
        if (ready) return; // in-flight operations learn of it through 'close'
        if (refusal) return reject(refusal);
        // ssh2's messages say nothing of keys; the level tells an auth refusal from a network failure.
        const retryable = e.level !== "client-authentication";
        reject(new TransportError(`Cannot connect to ${this.description}: ${e.message}`, { retryable, cause: e }));
      });
      client.on("end", gone);
      client.on("close", () => {
        gone();
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

  async #checkAll(key: Buffer): Promise<Error | undefined> {
    for (const machineKey of this.#machineKeys) {
      const mismatch = await checkHostKey(this.options.hostKeys, machineKey, this.description, key);
      if (mismatch) return mismatch;
    }
    return undefined;
  }

  #dropped(client: Client, what: string): TransportError {
    if (this.#client === client) this.#client = undefined;
    return new TransportError(`Connection to ${this.description} lost ${what}`, { retryable: true });
  }

  #execOn(client: Client, command: string, options: ExecOptions): Promise<ExecResult> {
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
      const onClientClose = () =>
        finish(stream ? this.#dropped(client, "while a command ran") : new NotStarted("", { retryable: true }));
      const onAbort = () => {
        stream?.close();
        finish(signal!.reason);
      };
      if (signal?.aborted) return finish(signal.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      client.once("close", onClientClose);
      try {
        client.exec(command, (e, s) => {
          if (e) {
            const dead = this.#client !== client;
            return finish(
              dead
                ? new NotStarted(e.message, { retryable: true })
                : new TransportError(`Cannot open a channel to ${this.description}: ${e.message}`, { retryable: true, cause: e }),
            );
          }
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
              return finish(this.#dropped(client, "before the command reported its exit status"));
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
        this.#client = this.#client === client ? undefined : this.#client;
        finish(new NotStarted((e as Error).message, { retryable: true }));
      }
    });
  }

  #writeOn(client: Client, path: string, data: string | Buffer, mode: number | undefined): Promise<void> {
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
      const onClientClose = () =>
        finish(sftp ? this.#dropped(client, "while writing a file") : new NotStarted("", { retryable: true }));
      const failed = (e: Error) =>
        finish(
          this.#client === client
            ? new TransportError(`Cannot write ${path} on ${this.description}: ${e.message}`, { retryable: false, cause: e })
            : this.#dropped(client, "while writing a file"),
        );
      client.once("close", onClientClose);
      try {
        client.sftp((e, s) => {
          if (e) return this.#client !== client ? finish(new NotStarted(e.message, { retryable: true })) : failed(e);
          sftp = s;
          s.writeFile(path, data, mode === undefined ? {} : { mode }, (we) => {
            if (we) return failed(we);
            // The open mode is masked by the umask and ignored for a file that existed.
            if (mode === undefined) return finish();
            s.chmod(path, mode, (ce) => (ce ? failed(ce) : finish()));
          });
        });
      } catch (e) {
        this.#client = this.#client === client ? undefined : this.#client;
        finish(new NotStarted((e as Error).message, { retryable: true }));
      }
    });
  }
}
