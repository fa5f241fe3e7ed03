import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createCpuGroup, type CpuGroup } from "./cpu-group.js";

const run = promisify(execFile);

export interface SshdOptions {
  /** Default /usr/sbin/sshd. */
  sshdPath?: string;
  /** How long to wait for the banner; default 10 s. */
  startTimeoutMs?: number;
  /** Receives sshd's log lines (it logs to stderr with -e); dropped by default. */
  onLog?: (line: string) => void;
  /**
   * Extra sshd_config lines, e.g. `MaxSessions 20`. By default the server keeps OpenSSH's
   * stock limits (MaxSessions 10, MaxStartups 10:30:100), as a real host would.
   */
  extraConfig?: string[];
  /**
   * Lets users log in with their password (`PasswordAuthentication yes`; sshd, without PAM,
   * checks it against the system's shadow file: see createPasswordUser). Off by default.
   */
  passwordAuthentication?: boolean;
  /**
   * The CPUs sshd, and so every session's processes, may run on (`taskset -c`, e.g. "0"): a host
   * with fewer CPUs than this machine. All of them by default.
   */
  cpus?: string;
  /**
   * Runs sshd, and so every session's processes, in a CPU cgroup of its own with this weight
   * (cgroup v1's `cpu.shares`; 1024 is a group's default): see createCpuGroup. A benchmark's
   * figures then depend on the CPUs it may use, not on how many other sessions the machine
   * runs. Needs root.
   */
  cpuShares?: number;
  /**
   * With `cpuShares`: at most this many CPUs' worth of time for sshd and its sessions (the cgroup's
   * CPU bandwidth), on whichever CPUs are free: `1` is a one-CPU host.
   */
  cpuLimit?: number;
  /**
   * Runs sshd in this network namespace (createNetNamespace), listening on its address: a host
   * of its own on the network. On loopback by default.
   */
  netns?: { name: string; address: string };
}

export interface SshdHarness {
  host: string;
  port: number;
  username: string;
  /** The throwaway user key (OpenSSH format), authorized for `username`. */
  privateKey: string;
  privateKeyPath: string;
  /** `SHA256:...` of the throwaway host key. */
  hostKeyFingerprint: string;
  stop(): Promise<void>;
  /** Kills the per-connection sshd processes (and what runs below them), leaving the listener: every client sees its connection drop. Returns how many connections it cut. */
  killSessionProcesses(): Promise<number>;
  /**
   * An outage: the listener stops (SIGSTOP: new connections hang in the handshake until the
   * client gives up) and every open connection is cut. Steps started detached go on.
   * Returns how many connections it cut.
   */
  suspend(): Promise<number>;
  /** Ends the outage: the listener answers again (and accepts what queued meanwhile). */
  resume(): void;
  /**
   * Makes another throwaway user key, authorized for `username` unless `authorized` is false,
   * and returns its private key text.
   */
  generateUserKey(options?: { authorized?: boolean }): Promise<string>;
  /** Authorizes one more OpenSSH public key line for `username` (as a cloud's guest agent does from metadata). */
  authorize(publicKey: string): Promise<void>;
}

/**
 * Starts a private OpenSSH server on 127.0.0.1 with throwaway keys in a temporary
 * directory, for integration tests. Touches no system configuration, except creating
 * sshd's privilege separation directory (/run/sshd) if it is missing.
 */
export async function startSshd(options: SshdOptions = {}): Promise<SshdHarness> {
  const sshd = options.sshdPath ?? "/usr/sbin/sshd";
  if (!existsSync(sshd)) {
    throw new Error(`${sshd} is missing: install OpenSSH's server (Debian: apt-get install openssh-server)`);
  }
  await mkdir("/run/sshd", { recursive: true, mode: 0o755 }).catch(() => undefined);

  const dir = await mkdtemp(join(tmpdir(), "bw-sshd-"));
  let child: ChildProcess | undefined;
  let group: CpuGroup | undefined;
  try {
    const hostKeyPath = join(dir, "host_ed25519");
    const privateKeyPath = join(dir, "user_ed25519");
    await keygen(hostKeyPath);
    await keygen(privateKeyPath);
    await writeFile(join(dir, "authorized_keys"), await readFile(`${privateKeyPath}.pub`), { mode: 0o600 });
    const hostKeyFingerprint = (await run("ssh-keygen", ["-l", "-E", "sha256", "-f", `${hostKeyPath}.pub`])).stdout.split(" ")[1];

    const port = await freePort();
    const host = options.netns?.address ?? "127.0.0.1";
    const configPath = join(dir, "sshd_config");
    const lines = [
      `ListenAddress ${host}`,
      `Port ${port}`,
      `HostKey ${hostKeyPath}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "StrictModes no",
      "UsePAM no",
      `PasswordAuthentication ${options.passwordAuthentication ? "yes" : "no"}`,
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "Subsystem sftp internal-sftp",
      "LogLevel VERBOSE",
      // Bash sources ~/.bashrc for ssh commands unless it believes itself nested; the test
      // user's rc file (slow version managers, prompts) has no business in these tests.
      "SetEnv SHLVL=1",
      ...(options.extraConfig ?? []),
    ];
    // OpenSSH 9.8+ penalizes sources whose connections end badly, which the drop tests do on purpose.
    await writeFile(configPath, [...lines, "PerSourcePenalties no"].join("\n") + "\n");
    if (!(await configAccepted(sshd, configPath))) await writeFile(configPath, lines.join("\n") + "\n");

    // taskset, and the shell that moves itself into the group, exec sshd: the child's pid stays sshd's own.
    let argv = [sshd, "-D", "-e", "-f", configPath];
    if (options.netns) argv = ["ip", "netns", "exec", options.netns.name, ...argv];
    if (options.cpus) argv = ["taskset", "-c", options.cpus, ...argv];
    if (options.cpuShares) {
      group = await createCpuGroup(options.cpuShares, { cpuLimit: options.cpuLimit });
      argv = ["sh", "-c", 'echo $$ > "$0" && exec "$@"', group.procsPath, ...argv];
    }
    const [command, ...args] = argv;
    child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    const log: string[] = [];
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      for (const line of text.split("\n").filter(Boolean)) {
        log.push(line);
        if (log.length > 50) log.shift();
        options.onLog?.(line);
      }
    });
    const exited = new Promise<never>((_, reject) =>
      child!.once("exit", (code) => reject(new Error(`sshd exited (code ${code}) before listening:\n${log.join("\n")}`))),
    );
    await Promise.race([waitForBanner(host, port, options.startTimeoutMs ?? 10_000), exited]);
    exited.catch(() => undefined);
    const listener = child;
    const pid = listener.pid!;
    let keys = 0;
    const killSessionProcesses = async () => {
      let killed = 0;
      for (const child of await childrenOf(pid)) {
        // The monitor and the session process below it both hold the client's socket: kill the whole subtree.
        const tree = await descendantsOf(child);
        if (signal(child, "SIGKILL")) killed++;
        for (const p of tree) signal(p, "SIGKILL");
      }
      return killed;
    };

    return {
      host,
      port,
      username: userInfo().username,
      privateKey: await readFile(privateKeyPath, "utf8"),
      privateKeyPath,
      hostKeyFingerprint,
      async stop() {
        if (listener.exitCode === null && listener.signalCode === null) {
          const gone = new Promise((resolve) => listener.once("exit", resolve));
          for (const child of await childrenOf(pid)) signal(child, "SIGKILL");
          listener.kill("SIGCONT");
          listener.kill("SIGTERM");
          await gone;
        }
        await group?.remove();
        await rm(dir, { recursive: true, force: true });
      },
      killSessionProcesses,
      async suspend() {
        listener.kill("SIGSTOP");
        return killSessionProcesses();
      },
      resume() {
        listener.kill("SIGCONT");
      },
      async generateUserKey({ authorized = true } = {}) {
        const path = join(dir, `user_ed25519_${++keys}`);
        await keygen(path);
        if (authorized) await appendFile(join(dir, "authorized_keys"), await readFile(`${path}.pub`));
        return readFile(path, "utf8");
      },
      async authorize(publicKey) {
        await appendFile(join(dir, "authorized_keys"), `${publicKey.trim()}\n`);
      },
    };
  } catch (e) {
    child?.kill("SIGKILL");
    await group?.remove();
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

export function sshTargetOf(harness: SshdHarness): { host: string; port: number; username: string; privateKey: string } {
  return { host: harness.host, port: harness.port, username: harness.username, privateKey: harness.privateKey };
}

async function keygen(path: string): Promise<void> {
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "benchwright-test", "-f", path]);
}

async function configAccepted(sshd: string, configPath: string): Promise<boolean> {
  try {
    await run(sshd, ["-t", "-f", configPath]);
    return true;
  } catch {
    return false;
  }
}

/** Binding port 0 lets the kernel pick a port free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForBanner(host: string, port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await answersBanner(host, port)) return;
    if (Date.now() > until) throw new Error(`sshd did not answer on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function answersBanner(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let seen = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("data", (data) => {
      seen += data.toString("latin1");
      if (seen.includes("\n")) done(seen.startsWith("SSH-2.0"));
    });
  });
}

async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
    for (const word of text.split(/\s+/)) if (word) children.push(Number(word));
  }
  return children;
}

async function descendantsOf(pid: number): Promise<number[]> {
  const all: number[] = [];
  for (const child of await childrenOf(pid)) all.push(child, ...(await descendantsOf(child)));
  return all;
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}
