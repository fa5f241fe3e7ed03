// Where the bench's steps run: the private sshd (with a reference ssh2 client to it) and the local host.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import ssh2 from "ssh2";
import { startSshd } from "@benchwright/testing";

/**
 * One private sshd from the engine's test harness. `stock` is false while the harness
 * overrides MaxSessions (OpenSSH's default is 10 channels per connection): figures over
 * SSH then do not show what a stock host allows, and the script says so.
 */
export async function benchSshd(defer) {
  const sshd = await startSshd();
  defer(() => sshd.stop());
  const config = readFileSync(join(dirname(sshd.privateKeyPath), "sshd_config"), "utf8");
  const maxSessions = /^\s*MaxSessions\s+(\d+)/im.exec(config)?.[1];
  const stock = maxSessions === undefined;
  if (!stock) console.log(`WARNING: the harness sshd sets MaxSessions ${maxSessions} (stock: 10): figures over SSH are NOT on stock limits`);
  return { ...sshd, stock, limitsNote: stock ? "" : ` [sshd MaxSessions ${maxSessions}, not stock]` };
}

/** A session body for an existing-vm session on the harness sshd. */
export function sshSessionBody(sshd) {
  return {
    config: {
      provider: { class: "existing-vm", name: "bench" },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  };
}

export const LOCAL_SESSION = { provider: "local", service: "default" };

/**
 * A warm ssh2 connection to the harness sshd (its host key checked): the reference client.
 * With Nagle's algorithm on (ssh2's default) every exec waits for delayed ACKs (~90 ms instead
 * of ~2 ms on loopback): the reference is the best a client can do, so it turns it off, unless
 * `ssh2Defaults` asks for the client as ssh2 makes it (as the issue measured its reference).
 * `algorithms` is ssh2's option of that name (the engine's ciphers, say).
 */
export async function ssh2Connection(sshd, { ssh2Defaults = false, algorithms } = {}) {
  const client = new ssh2.Client();
  if (!ssh2Defaults) client.on("connect", () => client.setNoDelay(true));
  await new Promise((resolve, reject) => {
    client.once("ready", resolve).once("error", reject);
    client.connect({
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      privateKey: sshd.privateKey,
      ...(algorithms ? { algorithms } : {}),
      hostVerifier: (key) => `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}` === sshd.hostKeyFingerprint,
    });
  });
  return {
    /** Runs `command`, its stdout piped into the writable `stdout` (dropped without one); resolves with the exit code. */
    exec(command, stdout) {
      return new Promise((resolve, reject) => {
        client.exec(command, (err, stream) => {
          if (err) return reject(err);
          const closed = new Promise((r) => stream.once("close", (code) => r(code)));
          stream.stderr.resume();
          if (!stdout) stream.resume();
          const written = stdout ? pipeline(stream, stdout) : undefined;
          Promise.all([closed, written]).then(([code]) => resolve(code), reject);
        });
      });
    },
    end: () => client.end(),
  };
}

/** The arguments of a fresh OpenSSH client running `command` on the harness sshd, as an operator would type it (the harness key, BatchMode). */
export function opensshArgs(sshd, command) {
  return [
    "-F",
    "/dev/null",
    "-i",
    sshd.privateKeyPath,
    "-p",
    String(sshd.port),
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    `${sshd.username}@${sshd.host}`,
    command,
  ];
}

/** Runs `bash -c <script>` locally, output dropped; resolves with the exit code. */
export function bash(script) {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
}
