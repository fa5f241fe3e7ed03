import type { Client, ConnectConfig } from "ssh2";
import type { SshConnectionOptions } from "./ssh-connection-options.js";
import { SSH_CIPHERS } from "./ssh-ciphers.js";
import { loadSsh2 } from "./ssh2-module.js";
import type { SshTarget } from "./transport.js";
import { TransportError } from "./transport-error.js";

/**
 * One SSH handshake with `target`, ready when it resolves. `checkHostKey` judges the key the
 * server offers (a mismatch it returns refuses the connection); a failure says whether
 * another attempt may succeed (`retryable`).
 */
export async function openSshClient(
  target: SshTarget,
  description: string,
  options: Pick<SshConnectionOptions, "readyTimeoutMs" | "keepaliveIntervalMs" | "keepaliveCountMax">,
  checkHostKey: (key: Buffer) => Promise<Error | undefined>,
): Promise<Client> {
  const { Client } = await loadSsh2();
  return new Promise((resolve, reject) => {
    const client = new Client();
    let ready = false;
    let refusal: Error | undefined;
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.username,
      // ssh2 offers what it is given: password first, then the key.
      ...(target.privateKey !== undefined ? { privateKey: target.privateKey } : {}),
      ...(target.password !== undefined ? { password: target.password } : {}),
      readyTimeout: options.readyTimeoutMs,
      keepaliveInterval: options.keepaliveIntervalMs,
      keepaliveCountMax: options.keepaliveCountMax,
      algorithms: { cipher: [...SSH_CIPHERS] },
      // Without a verifier ssh2 accepts any host key.
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
        checkHostKey(key).then(
          (mismatch) => {
            refusal = mismatch;
            verify(mismatch === undefined);
          },
          (e: unknown) => {
            refusal = new TransportError(`Cannot check the host key of ${description}: ${(e as Error).message}`, {
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
      reject(new TransportError(`Cannot connect to ${description}: ${e.message}`, { retryable, cause: e }));
    });
    client.on("close", () => {
      // A server past MaxStartups closes new connections during the handshake.
      if (!ready) reject(refusal ?? new TransportError(`Connection to ${description} closed during the handshake`, { retryable: true }));
    });
    try {
      client.connect(config);
    } catch (e) {
      // A malformed private key throws here; its message names the format, not the key.
      reject(new TransportError(`Cannot connect to ${description}: ${(e as Error).message}`, { retryable: false, cause: e }));
    }
  });
}
