import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSshd, sshTargetOf, type SshdHarness } from "@benchwright/testing";
import { InMemoryHostKeyStore } from "../transport/host-key.js";
import { LocalShell } from "../transport/local-shell.js";
import { SshPool } from "../transport/ssh-pool.js";
import type { Transport } from "../transport/transport.js";
import { StepRunner } from "./step-runner.js";

// A step that writes on both streams, interleaved, then fails.
const BOTH = ['for i in 1 2 3; do echo "out $i"; echo "err $i" >&2; done', "exit 4"].join("\n");

function sharedCases(transport: () => Transport, root: string) {
  const runner = new StepRunner({ reattachDelayMs: 100 });

  it("keeps the step's stdout and stderr apart, beside the merged log", async () => {
    const chunks: Buffer[] = [];
    const dir = `${root}/both`;
    const outcome = await runner.run(transport, { dir, script: BOTH, timeoutMs: 20_000 }, (c) => chunks.push(c));
    expect(outcome.exitCode).toBe(4);
    const log = Buffer.concat(chunks).toString();
    // Every line once in the log; each stream keeps its own order there.
    expect(log.split("\n").filter(Boolean).sort()).toEqual(["err 1", "err 2", "err 3", "out 1", "out 2", "out 3"]);
    expect(log.split("\n").filter((l) => l.startsWith("out"))).toEqual(["out 1", "out 2", "out 3"]);
    const t = transport();
    try {
      expect(await runner.outputTails(t, dir, 2048)).toEqual({ stdout: "out 1\nout 2\nout 3\n", stderr: "err 1\nerr 2\nerr 3\n" });
      // Bounded: the last bytes only.
      expect(await runner.outputTails(t, dir, 6)).toEqual({ stdout: "out 3\n", stderr: "err 3\n" });
    } finally {
      t.release();
    }
  }, 30_000);

  it("stores every byte of both streams in the log before the step's end", async () => {
    const chunks: Buffer[] = [];
    // 300 KiB on stderr last of all: more than a pipe holds, so the copy is still under way when the script exits.
    const script = 'echo first; head -c 307200 /dev/zero | tr "\\0" e >&2; exit 1';
    const outcome = await runner.run(transport, { dir: `${root}/late-stderr`, script, timeoutMs: 20_000 }, (c) => chunks.push(c));
    expect(outcome.exitCode).toBe(1);
    expect(outcome.logBytes).toBe(6 + 307200);
    expect(Buffer.concat(chunks).length).toBe(6 + 307200);
  }, 30_000);

  it("ends a step that left a process holding its output open", async () => {
    const chunks: Buffer[] = [];
    const script = "(sleep 30; echo late) & echo started; exit 3";
    const outcome = await runner.run(transport, { dir: `${root}/lingering`, script, timeoutMs: 25_000 }, (c) => chunks.push(c));
    expect(outcome).toMatchObject({ exitCode: 3, timedOut: false });
    expect(Buffer.concat(chunks).toString()).toBe("started\n");
    const t = transport();
    try {
      await runner.kill(t, await runner.start(t, { dir: `${root}/lingering`, script, timeoutMs: 1000 }));
    } finally {
      t.release();
    }
  }, 30_000);

  it("reports no stream for a dir the protocol never wrote them in", async () => {
    const t = transport();
    try {
      expect(await runner.outputTails(t, `${root}/never`, 2048)).toEqual({});
    } finally {
      t.release();
    }
  });

  afterAll(async () => {
    const t = transport();
    try {
      await runner.remove(t, root);
    } finally {
      t.release();
    }
  });
}

describe("a step's stdout and stderr, over LocalShell", () => {
  const local = new LocalShell();
  sharedCases(() => local, `~/.benchwright/test-${randomUUID()}`);
});

describe("a step's stdout and stderr, over SSH", () => {
  let sshd: SshdHarness;
  let pool: SshPool;
  beforeAll(async () => {
    sshd = await startSshd();
    pool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), reconnect: { initialDelayMs: 100 } });
  }, 20_000);
  afterAll(async () => {
    await pool?.close();
    await sshd?.stop();
  }, 20_000);
  sharedCases(() => pool.get(sshTargetOf(sshd), "test/tails"), `~/.benchwright/test-${randomUUID()}`);
});
