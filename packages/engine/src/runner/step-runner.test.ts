import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSshd, sshTargetOf, type SshdHarness } from "../testing/sshd.js";
import { InMemoryHostKeyStore } from "../transport/host-key.js";
import { LocalShell } from "../transport/local-shell.js";
import { SshPool } from "../transport/ssh-pool.js";
import type { Transport } from "../transport/transport.js";
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
      "for i in $(seq 1 15); do echo \"line $i\"; sleep 0.2; done",
      "exit 7",
    ].join("\n");
    const dir = `${root}/exit7`;
    const called = Date.now();
    const outcome = await runner.run(transport, { dir, script, env: { BW_X: "it's x" }, timeoutMs: 20_000 }, (c) => chunks.push(c));
    const returned = Date.now();
    const home = (await transport().exec("printf %s \"$HOME\"")).stdout;
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
    const handle = await runner.start(t, { dir: `${root}/timeout`, script: "echo start; sleep 60 & sleep 60; echo never", timeoutMs: 1000 });
    const chunks: Buffer[] = [];
    const outcome = await runner.follow(t, handle, { fromOffset: 0, onData: (c) => chunks.push(c), deadline: Date.now() + 1000 });
    expect(outcome).toEqual({ exitCode: null, timedOut: true, logBytes: 6 });
    expect(Buffer.concat(chunks).toString()).toBe("start\n");
    expect(await groupGone(t, handle.pgid)).toBe(true);
  }, 20_000);

  it("survives dropped connections mid-run without losing or repeating a byte", async () => {
    const chunks: Buffer[] = [];
    const script = "for i in $(seq 1 40); do echo \"line $i\"; sleep 0.1; done; exit 3";
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
    const handle = await runner.start(t, { dir: `${root}/resume`, script: "for i in $(seq 1 20); do echo \"line $i\"; sleep 0.05; done", timeoutMs: 20_000 });
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
      const outcome = await runner.run(
        transport,
        { dir: `${root}/big`, script: "head -c 52428800 /dev/zero | tr '\\0' 'x'", timeoutMs: 40_000 },
        (c) => {
          bytes += c.length;
          if (c.some((b) => b !== 0x78)) wrong++;
        },
      );
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
      outagePool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), readyTimeoutMs: 500, reconnect: { attempts: 2, initialDelayMs: 100, maxDelayMs: 200 } });
    });
    afterEach(async () => {
      sshd.resume();
      await outagePool.close();
    });

    it("reads the exit code and the log the host recorded, and when the step really ended", async () => {
      const dir = `${root}/outage`;
      const chunks: Buffer[] = [];
      const running = patient.run(target, { dir, script: 'for i in $(seq 1 5); do echo "line $i"; sleep 0.2; done', timeoutMs: 60_000 }, (c) =>
        chunks.push(c),
      );
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
    const script = "for i in $(seq 1 10); do echo \"line $i\"; sleep 0.05; done; echo \"$BW_Y\"; exit 5";
    const outcome = await runner.run(() => local, { dir: `${root}/s1`, script, env: { BW_Y: "y'y" }, timeoutMs: 10_000 }, (c) => chunks.push(c));
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
});
