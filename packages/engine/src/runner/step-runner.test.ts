import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSshd, sshTargetOf, type SshdHarness } from "../testing/sshd.js";
import { InMemoryHostKeyStore } from "../transport/host-key.js";
import { LocalShell } from "../transport/local-shell.js";
import { SshPool } from "../transport/ssh-pool.js";
import type { Transport } from "../transport/transport.js";
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
    const outcome = await runner.run(transport, { dir, script, env: { BW_X: "it's x" }, timeoutMs: 20_000 }, (c) => chunks.push(c));
    const home = (await transport().exec("printf %s \"$HOME\"")).stdout;
    const expected = `env=it's x cwd=${home}/${dir.slice(2)}\nsbin-ok\n${numbered(15)}`;
    expect(Buffer.concat(chunks).toString()).toBe(expected);
    expect(outcome).toEqual({ exitCode: 7, timedOut: false, logBytes: Buffer.byteLength(expected) });
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
    expect(outcome).toEqual({ exitCode: 0, timedOut: false, logBytes: Buffer.byteLength(numbered(20)) });
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
      expect(outcome).toEqual({ exitCode: 0, timedOut: false, logBytes: 52428800 });
    } finally {
      clearInterval(sampler);
    }
    expect(bytes).toBe(52428800);
    expect(wrong).toBe(0);
    expect(rssPeak - rssBefore).toBeLessThan(60 * 1024 * 1024);
  }, 45_000);

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
