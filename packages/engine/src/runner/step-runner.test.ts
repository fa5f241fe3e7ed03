import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSshd, sshTargetOf, type SshdHarness } from "@benchwright/testing";
import { InMemoryHostKeyStore } from "../transport/host-key.js";
import { LocalShell } from "../transport/local-shell.js";
import { SshPool } from "../transport/ssh-pool.js";
import type { ExecOptions, Transport } from "../transport/transport.js";
import { parseEnd } from "./follow-script.js";
import { shellPath } from "./shell-quote.js";
import { StepRunner } from "./step-runner.js";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for a process group to vanish: a container's init may take seconds to reap zombies. */
async function groupGone(t: Transport, pgid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if ((await t.exec(`kill -0 -- -${pgid} 2>/dev/null`)).code !== 0) return true;
    await sleep(100);
  }
  return false;
}

/** What went through a transport: commands run, files written, and each command's stderr. */
interface Seen {
  execs: number;
  writes: number;
  stderr: string[];
}

/**
 * Wraps transports to count their use. With `pathFirst`, every command finds the programs of
 * that dir before the system's (how a host with other tools is simulated).
 */
function observed(get: () => Transport, pathFirst?: string): { get: () => Transport; seen: Seen } {
  const seen: Seen = { execs: 0, writes: 0, stderr: [] };
  const wrap = (t: Transport): Transport => ({
    description: t.description,
    async exec(command: string, options: ExecOptions = {}) {
      seen.execs++;
      const i = seen.stderr.push("") - 1;
      const r = await t.exec(pathFirst ? `PATH=${shellPath(pathFirst)}:"$PATH" ${command}` : command, {
        ...options,
        onStderr: (chunk) => {
          seen.stderr[i] += chunk.toString("latin1");
          options.onStderr?.(chunk);
        },
      });
      return options.onStderr ? r : { ...r, stderr: seen.stderr[i] };
    },
    writeFile(path: string, data: string | Buffer, mode?: number) {
      seen.writes++;
      return t.writeFile(path, data, mode);
    },
    release: () => t.release(),
  });
  return { get: () => wrap(get()), seen };
}

/** Resolves a `~/` path on this host (the harness's sshd runs as the same user). */
const onThisHost = (path: string) => (path.startsWith("~/") ? join(homedir(), path.slice(2)) : path);

/** Processes working in `dir` that are not the step's own (its process group): its followers. */
function followersIn(dir: string, stepGroup: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/cwd`) !== dir) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z" && Number(group) !== stepGroup) found.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Waits (up to 20 s) for the followers of a step to go, and returns those left. */
async function followersGone(dir: string, stepGroup: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const left = followersIn(dir, stepGroup);
    if (left.length === 0) return left;
    await sleep(100);
  }
  return followersIn(dir, stepGroup);
}

/**
 * A dir holding a `tail` like busybox's, without GNU's --pid (it refuses the option, then
 * behaves as the real one): a host where the follower must copy the log itself.
 */
function busyboxLikeTail(): string {
  const dir = mkdtempSync(join(tmpdir(), "bw-tail-"));
  const real = execFileSync("bash", ["-c", "command -v tail"], { encoding: "utf8" }).trim();
  writeFileSync(
    join(dir, "tail"),
    `#!/bin/bash\nfor a; do case "$a" in --pid*) echo "tail: unrecognized option '$a'" >&2; exit 1;; esac; done\nexec ${real} "$@"\n`,
  );
  chmodSync(join(dir, "tail"), 0o755);
  return dir;
}

const endOf = (stderr: string) => parseEnd(stderr);

describe("StepRunner over SSH", () => {
  let sshd: SshdHarness;
  let pool: SshPool;
  const root = `~/.benchwright/test-${randomUUID()}`;
  const runner = new StepRunner({ reattachDelayMs: 100 });
  const transport = () => pool.get(sshTargetOf(sshd), "test/m1");

  beforeAll(async () => {
    sshd = await startSshd();
    pool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), reconnect: { initialDelayMs: 100 } });
  }, 20_000);
  afterAll(async () => {
    try {
      if (pool && sshd) await runner.remove(transport(), root);
    } finally {
      await pool?.close();
      await sshd?.stop();
    }
  }, 20_000);

  it("runs a step to its exit code with its whole log, env, cwd and PATH", async () => {
    const chunks: Buffer[] = [];
    const script = [
      'echo "env=$BW_X cwd=$(pwd)"',
      'case ":$PATH:" in *:/usr/sbin:*) echo sbin-ok;; esac',
      'for i in $(seq 1 15); do echo "line $i"; sleep 0.2; done',
      "exit 7",
    ].join("\n");
    const dir = `${root}/exit7`;
    const called = Date.now();
    const outcome = await runner.run(transport, { dir, script, env: { BW_X: "it's x" }, timeoutMs: 20_000 }, (c) => chunks.push(c));
    const returned = Date.now();
    const home = (await transport().exec('printf %s "$HOME"')).stdout;
    const expected = `env=it's x cwd=${home}/${dir.slice(2)}\nsbin-ok\n${numbered(15)}`;
    expect(Buffer.concat(chunks).toString()).toBe(expected);
    expect(outcome).toMatchObject({ exitCode: 7, timedOut: false, logBytes: Buffer.byteLength(expected) });
    // The host's own account of the run: inside the call, and at least as long as its sleeps.
    expect(outcome.startedAt).toBeGreaterThanOrEqual(called);
    expect(outcome.endedAt).toBeLessThanOrEqual(returned);
    expect(outcome.endedAt! - outcome.startedAt!).toBeGreaterThanOrEqual(15 * 200);
  }, 20_000);

  it("kills the whole process group when the deadline passes", async () => {
    const t = transport();
    const handle = await runner.start(t, {
      dir: `${root}/timeout`,
      script: "echo start; sleep 60 & sleep 60; echo never",
      timeoutMs: 1000,
    });
    const chunks: Buffer[] = [];
    const outcome = await runner.follow(t, handle, { fromOffset: 0, onData: (c) => chunks.push(c), deadline: Date.now() + 1000 });
    expect(outcome).toEqual({ exitCode: null, timedOut: true, logBytes: 6 });
    expect(Buffer.concat(chunks).toString()).toBe("start\n");
    expect(await groupGone(t, handle.pgid)).toBe(true);
  }, 20_000);

  it("survives dropped connections mid-run without losing or repeating a byte", async () => {
    const chunks: Buffer[] = [];
    const script = 'for i in $(seq 1 40); do echo "line $i"; sleep 0.1; done; exit 3';
    const before = pool.connectionsOpened;
    const running = runner.run(transport, { dir: `${root}/drop`, script, timeoutMs: 30_000 }, (c) => chunks.push(c));
    await sleep(1200);
    expect(await sshd.killSessionProcesses()).toBeGreaterThan(0);
    await sleep(1200);
    expect(await sshd.killSessionProcesses()).toBeGreaterThan(0);
    const outcome = await running;
    expect(Buffer.concat(chunks).toString()).toBe(numbered(40));
    expect(outcome.exitCode).toBe(3);
    expect(pool.connectionsOpened - before).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it("resumes following from a byte offset, as after a server restart", async () => {
    const t = transport();
    const handle = await runner.start(t, {
      dir: `${root}/resume`,
      script: 'for i in $(seq 1 20); do echo "line $i"; sleep 0.05; done',
      timeoutMs: 20_000,
    });
    const first: Buffer[] = [];
    const stop = new AbortController();
    const deadline = Date.now() + 20_000;
    const aborted = await runner
      .follow(t, handle, { fromOffset: 0, deadline, signal: stop.signal, onData: (c) => (first.push(c), stop.abort()) })
      .catch((e) => e);
    expect(aborted).toBeDefined();
    const offset = Buffer.concat(first).length;
    expect(offset).toBeGreaterThan(0);
    const rest: Buffer[] = [];
    const outcome = await runner.follow(t, handle, { fromOffset: offset, deadline, onData: (c) => rest.push(c) });
    expect(Buffer.concat([...first, ...rest]).toString()).toBe(numbered(20));
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, logBytes: Buffer.byteLength(numbered(20)) });
  }, 20_000);

  it("streams a 50 MiB log through onData without holding it", async () => {
    let bytes = 0;
    let wrong = 0;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
    try {
      const outcome = await runner.run(transport, { dir: `${root}/big`, script: "head -c 52428800 /dev/zero | tr '\\0' 'x'", timeoutMs: 40_000 }, (c) => {
        bytes += c.length;
        if (c.some((b) => b !== 0x78)) wrong++;
      });
      expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, logBytes: 52428800 });
    } finally {
      clearInterval(sampler);
    }
    expect(bytes).toBe(52428800);
    expect(wrong).toBe(0);
    expect(rssPeak - rssBefore).toBeLessThan(60 * 1024 * 1024);
  }, 45_000);

  it("runs 45 concurrent steps on one host with OpenSSH's stock limits, none failing for want of a channel", async () => {
    // Stock sshd: 10 channels per connection, handshakes beyond 10 at once dropped at random.
    const second = await sshd.generateUserKey();
    const many = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    try {
      const transports = [
        // Three sessions' machines on the same host with the same key, and one with another key.
        ...Array.from({ length: 30 }, (_, i) => () => many.get(sshTargetOf(sshd), `many-${i % 3}/m1`)),
        ...Array.from({ length: 15 }, () => () => many.get({ ...sshTargetOf(sshd), privateKey: second }, "many-other/m1")),
      ];
      const logs = transports.map(() => [] as Buffer[]);
      const outcomes = await Promise.all(
        transports.map((t, i) =>
          runner.run(t, { dir: `${root}/many-${i}`, script: `echo start ${i}; sleep 2; echo end ${i}`, timeoutMs: 60_000 }, (c) => logs[i].push(c)),
        ),
      );
      expect(outcomes.map((o) => [o.exitCode, o.timedOut])).toEqual(outcomes.map(() => [0, false]));
      expect(logs.map((l) => Buffer.concat(l).toString())).toEqual(logs.map((_, i) => `start ${i}\nend ${i}\n`));
    } finally {
      await many.close();
    }
  }, 45_000);

  describe("when the host cannot be reached for a while", () => {
    // A connection attempt gives up fast and the pool tries twice: a fixed budget of attempts
    // would be spent long before the outage ends. The runner must keep trying until the deadline.
    const OUTAGE_MS = 10_000;
    let outagePool: SshPool;
    const patient = new StepRunner({ reattachDelayMs: 100, maxReattachDelayMs: 400, afterDeadlineMs: 1000 });
    const target = () => outagePool.get(sshTargetOf(sshd), "outage/m1");
    beforeEach(() => {
      outagePool = new SshPool({
        hostKeys: new InMemoryHostKeyStore(),
        readyTimeoutMs: 500,
        reconnect: { attempts: 2, initialDelayMs: 100, maxDelayMs: 200 },
      });
    });
    afterEach(async () => {
      sshd.resume();
      await outagePool.close();
    });

    it("reads the exit code and the log the host recorded, and when the step really ended", async () => {
      const dir = `${root}/outage`;
      const chunks: Buffer[] = [];
      const running = patient.run(target, { dir, script: 'for i in $(seq 1 5); do echo "line $i"; sleep 0.2; done', timeoutMs: 60_000 }, (c) => chunks.push(c));
      while (chunks.length === 0) await sleep(20);
      expect(await sshd.suspend()).toBeGreaterThan(0);
      await sleep(OUTAGE_MS);
      const resumedAt = Date.now();
      sshd.resume();
      const outcome = await running;

      expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, logBytes: Buffer.byteLength(numbered(5)) });
      expect(Buffer.concat(chunks).toString()).toBe(numbered(5));
      // The end is when the host wrote step.rc (this host's clock is ours), long before it could be read.
      const rcWritten = Number((await transport().exec(`date -r ${shellPath(dir)}/step.rc +%s%3N`)).stdout);
      expect(outcome.endedAt).toBeLessThan(resumedAt);
      expect(Math.abs(outcome.endedAt! - rcWritten)).toBeLessThan(1000);
    }, 40_000);

    it("gives a timed-out outcome with the log so far when the host is still unreachable after the deadline", async () => {
      const dir = `${root}/unreachable`;
      const chunks: Buffer[] = [];
      const running = patient.run(target, { dir, script: "echo before; sleep 30; echo after", timeoutMs: 3000 }, (c) => chunks.push(c));
      while (chunks.length === 0) await sleep(20);
      expect(await sshd.suspend()).toBeGreaterThan(0);
      // Resolves while the host is still out of reach.
      const outcome = await running;
      sshd.resume();

      expect(outcome).toEqual({ exitCode: null, timedOut: true, unreachable: true, logBytes: 7 });
      expect(Buffer.concat(chunks).toString()).toBe("before\n");
      // The step could not be killed: it is left running, to be stopped once the host is back
      // (through the patient pool of the other tests: this one's last handshakes may still be failing).
      const pgid = Number((await transport().exec(`cat ${shellPath(dir)}/step.pid`)).stdout);
      expect((await transport().exec(`kill -0 -- -${pgid}`)).code).toBe(0);
      await patient.kill(transport(), { dir, pgid });
      expect(await groupGone(transport(), pgid)).toBe(true);
    }, 40_000);
  });

  describe("the start", () => {
    it("writes, launches and follows a step with one command, which is told of the step's end", async () => {
      // Polling every 10 s: an end noticed without a single wake-up was pushed.
      const slowPolling = new StepRunner({ pollIntervalMs: 10_000 });
      const { get, seen } = observed(transport);
      const chunks: Buffer[] = [];
      const outcome = await slowPolling.run(
        get,
        { dir: `${root}/one-exec`, script: 'echo "$BW_Z"; sleep 0.3; echo done', env: { BW_Z: "z z" }, timeoutMs: 20_000 },
        (c) => chunks.push(c),
      );
      expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, logBytes: 9 });
      expect(Buffer.concat(chunks).toString()).toBe("z z\ndone\n");
      expect(seen).toMatchObject({ execs: 1, writes: 0 });
      // It outlived the quick answer, so tail streamed it.
      expect(seen.stderr[0]).toMatch(/^via:tail$/m);
      expect(endOf(seen.stderr[0])).toMatchObject({ kind: "rc", code: 0, ticks: 0 });
    }, 20_000);

    it("answers a quick step from the same command", async () => {
      const { get, seen } = observed(transport);
      const outcome = await runner.run(get, { dir: `${root}/quick`, script: "echo quick; exit 4", timeoutMs: 20_000 }, () => undefined);
      expect(outcome).toMatchObject({ exitCode: 4, logBytes: 6 });
      expect(seen).toMatchObject({ execs: 1, writes: 0 });
    }, 20_000);

    it("re-attaches to a step already launched in its dir instead of starting it again", async () => {
      const dir = `${root}/twice`;
      const marker = `${root}/twice-launches`;
      const script = `echo launched >> ${shellPath(marker)}; echo start; sleep 1; echo end; exit 6`;
      const logs: Buffer[][] = [[], [], []];
      // Two workers start it at once (a takeover racing the first holder)...
      const outcomes = await Promise.all([0, 1].map((i) => runner.run(transport, { dir, script, timeoutMs: 20_000 }, (c) => logs[i].push(c))));
      // ...and a third comes after its end: each gets the one run's log and code.
      outcomes.push(await runner.run(transport, { dir, script, timeoutMs: 20_000 }, (c) => logs[2].push(c)));
      expect(outcomes.map((o) => [o.exitCode, o.logBytes])).toEqual([
        [6, 10],
        [6, 10],
        [6, 10],
      ]);
      expect(logs.map((l) => Buffer.concat(l).toString())).toEqual(["start\nend\n", "start\nend\n", "start\nend\n"]);
      expect((await transport().exec(`cat ${shellPath(marker)}`)).stdout).toBe("launched\n");
    }, 20_000);

    it("re-attaches after runner.start, as a worker taking over a launched step does", async () => {
      const dir = `${root}/taken-over`;
      const marker = `${root}/taken-over-launches`;
      const spec = { dir, script: `echo launched >> ${shellPath(marker)}; sleep 0.5; echo ok`, timeoutMs: 20_000 };
      const handle = await runner.start(transport(), spec);
      const chunks: Buffer[] = [];
      expect(await runner.run(transport, spec, (c) => chunks.push(c))).toMatchObject({ exitCode: 0, logBytes: 3 });
      expect(Buffer.concat(chunks).toString()).toBe("ok\n");
      expect(await runner.start(transport(), spec)).toEqual(handle);
      expect((await transport().exec(`cat ${shellPath(marker)}`)).stdout).toBe("launched\n");
    }, 20_000);

    it("uploads a script too big to travel inside the command", async () => {
      const { get, seen } = observed(transport);
      const filler = `# ${"x".repeat(98)}\n`.repeat(1000);
      const chunks: Buffer[] = [];
      const outcome = await runner.run(get, { dir: `${root}/big-script`, script: `${filler}echo "it's big"`, env: { BW_Q: "q" }, timeoutMs: 20_000 }, (c) =>
        chunks.push(c),
      );
      expect(outcome).toMatchObject({ exitCode: 0, logBytes: 9 });
      expect(Buffer.concat(chunks).toString()).toBe("it's big\n");
      // mkdir, the two files, then the start.
      expect(seen).toMatchObject({ execs: 2, writes: 2 });
      expect((await transport().exec(`ls -A ${shellPath(`${root}/big-script`)}`)).stdout.split("\n").filter(Boolean).sort()).toEqual([
        "env.sh",
        "launch.lock",
        "step.err",
        "step.err.fifo",
        "step.log",
        "step.out",
        "step.out.fifo",
        "step.pid",
        "step.rc",
        "step.sh",
      ]);
    }, 20_000);

    it("keeps env.sh and step.sh private to the user, and runs the step with the login umask", async () => {
      const dir = `${root}/private`;
      const chunks: Buffer[] = [];
      await runner.run(transport, { dir, script: "umask", env: { BW_SECRETISH: "s" }, timeoutMs: 20_000 }, (c) => chunks.push(c));
      expect((await transport().exec(`cd ${shellPath(dir)} && stat -c '%n %a' env.sh step.sh`)).stdout).toBe("env.sh 600\nstep.sh 600\n");
      expect(Buffer.concat(chunks).toString()).toBe((await transport().exec("umask")).stdout);
    }, 20_000);
  });

  it("keeps the step's files off the command lines that live while it runs", async () => {
    const mark = `bw-${randomUUID()}`;
    let seenWhileRunning: number[] | undefined;
    const onData = () => {
      // The step is running: who shows the mark in its command line?
      seenWhileRunning ??= readdirSync("/proc")
        .filter((name) => /^\d+$/.test(name))
        .filter((name) => {
          try {
            return readFileSync(`/proc/${name}/cmdline`, "latin1").includes(mark);
          } catch {
            return false;
          }
        })
        .map(Number);
    };
    const outcome = await runner.run(
      transport,
      { dir: `${root}/cmdline`, script: `# ${mark}\necho started; sleep 1`, env: { BW_MARK: mark }, timeoutMs: 20_000 },
      onData,
    );
    expect(outcome.exitCode).toBe(0);
    expect(seenWhileRunning).toEqual([]);
  }, 20_000);

  it("runs the step immune to hangups (as nohup did), with SIGPIPE as it was", async () => {
    const chunks: Buffer[] = [];
    const script = [
      'yes | head -c 2 > /dev/null; echo "pipe ${PIPESTATUS[0]}"',
      'while read -r k v; do [ "$k" = SigIgn: ] && m=$((16#$v)); done < /proc/$BASHPID/status',
      'echo "hup ignored $(( m & 1 )), pipe ignored $(( (m >> 12) & 1 ))"',
    ].join("\n");
    await runner.run(transport, { dir: `${root}/signals`, script, timeoutMs: 20_000 }, (c) => chunks.push(c));
    expect(Buffer.concat(chunks).toString()).toBe("pipe 141\nhup ignored 1, pipe ignored 0\n");
  }, 20_000);

  describe("on a host without GNU tail", () => {
    let fakeBin: string;
    const polling = new StepRunner({ reattachDelayMs: 100, pollIntervalMs: 50 });
    beforeAll(() => {
      fakeBin = busyboxLikeTail();
    });
    afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

    it("copies the log itself, every byte once and in order", async () => {
      const { get, seen } = observed(transport, fakeBin);
      const chunks: Buffer[] = [];
      const outcome = await polling.run(
        get,
        { dir: `${root}/no-gnu-tail`, script: 'for i in $(seq 1 30); do echo "line $i"; sleep 0.02; done; exit 2', timeoutMs: 20_000 },
        (c) => chunks.push(c),
      );
      expect(Buffer.concat(chunks).toString()).toBe(numbered(30));
      expect(outcome).toMatchObject({ exitCode: 2, logBytes: Buffer.byteLength(numbered(30)) });
      expect(seen.execs).toBe(1);
      expect(seen.stderr[0]).toMatch(/^via:poll$/m);
    }, 20_000);

    it("is still told of the end by the step it launched", async () => {
      const slowPolling = new StepRunner({ pollIntervalMs: 10_000 });
      const { get, seen } = observed(transport, fakeBin);
      const chunks: Buffer[] = [];
      const outcome = await slowPolling.run(get, { dir: `${root}/no-gnu-tail-push`, script: "echo one; sleep 0.3; echo two", timeoutMs: 20_000 }, (c) =>
        chunks.push(c),
      );
      expect(outcome).toMatchObject({ exitCode: 0, logBytes: 8 });
      expect(Buffer.concat(chunks).toString()).toBe("one\ntwo\n");
      expect(seen.stderr[0]).toMatch(/^via:poll$/m);
      expect(endOf(seen.stderr[0])).toMatchObject({ kind: "rc", ticks: 0 });
    }, 20_000);

    it("resumes from an offset by polling", async () => {
      const { get, seen } = observed(transport, fakeBin);
      const t = get();
      const handle = await polling.start(t, {
        dir: `${root}/no-gnu-tail-resume`,
        script: 'for i in $(seq 1 20); do echo "line $i"; sleep 0.03; done',
        timeoutMs: 20_000,
      });
      const first: Buffer[] = [];
      const stop = new AbortController();
      const deadline = Date.now() + 20_000;
      await polling.follow(t, handle, { fromOffset: 0, deadline, signal: stop.signal, onData: (c) => (first.push(c), stop.abort()) }).catch(() => undefined);
      const rest: Buffer[] = [];
      const offset = Buffer.concat(first).length;
      const outcome = await polling.follow(t, handle, { fromOffset: offset, deadline, onData: (c) => rest.push(c) });
      expect(Buffer.concat([...first, ...rest]).toString()).toBe(numbered(20));
      expect(outcome).toMatchObject({ exitCode: 0, logBytes: Buffer.byteLength(numbered(20)) });
      expect(seen.stderr.some((e) => /^via:poll$/m.test(e))).toBe(true);
    }, 20_000);
  });

  it("leaves no follower behind on the host when its channel closes", async () => {
    const dir = `${root}/abandoned`;
    const t = transport();
    const handle = await runner.start(t, { dir, script: "echo begin; sleep 60", timeoutMs: 90_000 });
    const stop = new AbortController();
    const following = runner.follow(t, handle, {
      fromOffset: 0,
      deadline: Date.now() + 90_000,
      signal: stop.signal,
      onData: () => stop.abort(),
    });
    await expect(following).rejects.toBeDefined();
    expect(await followersGone(onThisHost(dir), handle.pgid)).toEqual([]);
    // The step itself goes on, until killed.
    expect((await t.exec(`kill -0 -- -${handle.pgid}`)).code).toBe(0);
    await runner.kill(t, handle);
    expect(await groupGone(t, handle.pgid)).toBe(true);
  }, 40_000);

  it("removes work dirs only below .benchwright", async () => {
    const t = transport();
    await expect(runner.remove(t, "~")).rejects.toThrow(/Refusing/);
    await t.exec(`mkdir -p "$HOME"/${root.slice(2)}/gone/sub`);
    await runner.remove(t, `${root}/gone`);
    expect((await t.exec(`test -e "$HOME"/${root.slice(2)}/gone`)).code).toBe(1);
  }, 10_000);
});

describe("StepRunner over LocalShell", () => {
  const local = new LocalShell();
  const root = `~/.benchwright/test-${randomUUID()}`;
  const runner = new StepRunner();
  afterAll(async () => {
    await runner.remove(local, root);
  });

  it("runs a step to its exit code with its whole log", async () => {
    const chunks: Buffer[] = [];
    const script = 'for i in $(seq 1 10); do echo "line $i"; sleep 0.05; done; echo "$BW_Y"; exit 5';
    const outcome = await runner.run(
      () => local,
      { dir: `${root}/s1`, script, env: { BW_Y: "y'y" }, timeoutMs: 10_000 },
      (c) => chunks.push(c),
    );
    expect(Buffer.concat(chunks).toString()).toBe(numbered(10) + "y'y\n");
    expect(outcome.exitCode).toBe(5);
    expect(outcome.timedOut).toBe(false);
  }, 15_000);

  it("times out and kills the group", async () => {
    const handle = await runner.start(local, { dir: `${root}/s2`, script: "sleep 60", timeoutMs: 500 });
    const outcome = await runner.follow(local, handle, { fromOffset: 0, onData: () => undefined, deadline: Date.now() + 500 });
    expect(outcome).toMatchObject({ exitCode: null, timedOut: true });
    expect(await groupGone(local, handle.pgid)).toBe(true);
  }, 15_000);

  it("starts and follows with one command", async () => {
    const { get, seen } = observed(() => local);
    const outcome = await runner.run(get, { dir: `${root}/s3`, script: "echo a; sleep 0.2; echo b", timeoutMs: 10_000 }, () => undefined);
    expect(outcome).toMatchObject({ exitCode: 0, logBytes: 4 });
    expect(seen).toMatchObject({ execs: 1, writes: 0 });
  }, 15_000);

  it("leaves no follower behind when it is stopped", async () => {
    const dir = `${root}/s4`;
    const handle = await runner.start(local, { dir, script: "echo begin; sleep 60", timeoutMs: 90_000 });
    const stop = new AbortController();
    const following = runner.follow(local, handle, {
      fromOffset: 0,
      deadline: Date.now() + 90_000,
      signal: stop.signal,
      onData: () => stop.abort(),
    });
    await expect(following).rejects.toBeDefined();
    expect(await followersGone(onThisHost(dir), handle.pgid)).toEqual([]);
    await runner.kill(local, handle);
    expect(await groupGone(local, handle.pgid)).toBe(true);
  }, 40_000);
});
