import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createCpuGroup } from "./cpu-group.js";
const run = promisify(execFile);
/**
 * Starts a private OpenSSH server on 127.0.0.1 with throwaway keys in a temporary
 * directory, for integration tests. Touches no system configuration, except creating
 * sshd's privilege separation directory (/run/sshd) if it is missing.
 */
export async function startSshd(options = {}) {
    const sshd = options.sshdPath ?? "/usr/sbin/sshd";
    if (!existsSync(sshd)) {
        throw new Error(`${sshd} is missing: install OpenSSH's server (Debian: apt-get install openssh-server)`);
    }
    await mkdir("/run/sshd", { recursive: true, mode: 0o755 }).catch(() => undefined);
    const dir = await mkdtemp(join(tmpdir(), "bw-sshd-"));
    let child;
    let group;
    try {
        const hostKeyPath = join(dir, "host_ed25519");
        const privateKeyPath = join(dir, "user_ed25519");
        await keygen(hostKeyPath);
        await keygen(privateKeyPath);
        await writeFile(join(dir, "authorized_keys"), await readFile(`${privateKeyPath}.pub`), { mode: 0o600 });
        const hostKeyFingerprint = (await run("ssh-keygen", ["-l", "-E", "sha256", "-f", `${hostKeyPath}.pub`])).stdout.split(" ")[1];
        const port = await freePort();
        const configPath = join(dir, "sshd_config");
        const lines = [
            "ListenAddress 127.0.0.1",
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
        if (!(await configAccepted(sshd, configPath)))
            await writeFile(configPath, lines.join("\n") + "\n");
        // taskset, and the shell that moves itself into the group, exec sshd: the child's pid stays sshd's own.
        let argv = [sshd, "-D", "-e", "-f", configPath];
        if (options.cpus)
            argv = ["taskset", "-c", options.cpus, ...argv];
        if (options.cpuShares) {
            group = await createCpuGroup(options.cpuShares, { cpuLimit: options.cpuLimit });
            argv = ["sh", "-c", 'echo $$ > "$0" && exec "$@"', group.procsPath, ...argv];
        }
        const [command, ...args] = argv;
        child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
        const log = [];
        child.stderr.setEncoding("utf8").on("data", (text) => {
            for (const line of text.split("\n").filter(Boolean)) {
                log.push(line);
                if (log.length > 50)
                    log.shift();
                options.onLog?.(line);
            }
        });
        const exited = new Promise((_, reject) => child.once("exit", (code) => reject(new Error(`sshd exited (code ${code}) before listening:\n${log.join("\n")}`))));
        await Promise.race([waitForBanner(port, options.startTimeoutMs ?? 10_000), exited]);
        exited.catch(() => undefined);
        const listener = child;
        const pid = listener.pid;
        let keys = 0;
        const killSessionProcesses = async () => {
            let killed = 0;
            for (const child of await childrenOf(pid)) {
                // The monitor and the session process below it both hold the client's socket: kill the whole subtree.
                const tree = await descendantsOf(child);
                if (signal(child, "SIGKILL"))
                    killed++;
                for (const p of tree)
                    signal(p, "SIGKILL");
            }
            return killed;
        };
        return {
            host: "127.0.0.1",
            port,
            username: userInfo().username,
            privateKey: await readFile(privateKeyPath, "utf8"),
            privateKeyPath,
            hostKeyFingerprint,
            async stop() {
                if (listener.exitCode === null && listener.signalCode === null) {
                    const gone = new Promise((resolve) => listener.once("exit", resolve));
                    for (const child of await childrenOf(pid))
                        signal(child, "SIGKILL");
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
                if (authorized)
                    await appendFile(join(dir, "authorized_keys"), await readFile(`${path}.pub`));
                return readFile(path, "utf8");
            },
            async authorize(publicKey) {
                await appendFile(join(dir, "authorized_keys"), `${publicKey.trim()}\n`);
            },
        };
    }
    catch (e) {
        child?.kill("SIGKILL");
        await group?.remove();
        await rm(dir, { recursive: true, force: true });
        throw e;
    }
}
export function sshTargetOf(harness) {
    return { host: harness.host, port: harness.port, username: harness.username, privateKey: harness.privateKey };
}
async function keygen(path) {
    await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "benchwright-test", "-f", path]);
}
async function configAccepted(sshd, configPath) {
    try {
        await run(sshd, ["-t", "-f", configPath]);
        return true;
    }
    catch {
        return false;
    }
}
/** Binding port 0 lets the kernel pick a port free right now. */
function freePort() {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.unref();
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
            const { port } = server.address();
            server.close(() => resolve(port));
        });
    });
}
async function waitForBanner(port, timeoutMs) {
    const until = Date.now() + timeoutMs;
    for (;;) {
        if (await answersBanner(port))
            return;
        if (Date.now() > until)
            throw new Error(`sshd did not answer on 127.0.0.1:${port} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
    }
}
function answersBanner(port) {
    return new Promise((resolve) => {
        const socket = connect(port, "127.0.0.1");
        let seen = "";
        const done = (ok) => {
            socket.destroy();
            resolve(ok);
        };
        socket.setTimeout(1000, () => done(false));
        socket.on("error", () => done(false));
        socket.on("data", (data) => {
            seen += data.toString("latin1");
            if (seen.includes("\n"))
                done(seen.startsWith("SSH-2.0"));
        });
    });
}
async function childrenOf(pid) {
    const children = [];
    const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
    for (const task of tasks) {
        const text = await readFile(`/proc/${pid}/task/${task}/children`, "utf8").catch(() => "");
        for (const word of text.split(/\s+/))
            if (word)
                children.push(Number(word));
    }
    return children;
}
async function descendantsOf(pid) {
    const all = [];
    for (const child of await childrenOf(pid))
        all.push(child, ...(await descendantsOf(child)));
    return all;
}
function signal(pid, name) {
    try {
        process.kill(pid, name);
        return true;
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=sshd.js.map