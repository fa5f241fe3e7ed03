import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BenchwrightError } from "../errors.js";
import { startSshd, sshTargetOf, type SshdHarness } from "../testing/sshd.js";
import { InMemoryHostKeyStore } from "./host-key.js";
import { SshPool } from "./ssh-pool.js";
import { TransportError } from "./transport-error.js";

describe("SshPool against a private sshd", () => {
  let sshd: SshdHarness;
  beforeAll(async () => {
    sshd = await startSshd();
  }, 20_000);
  afterAll(async () => {
    await sshd?.stop();
  }, 20_000);

  it("runs commands and collects output and exit codes", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    try {
      const t = pool.get(sshTargetOf(sshd), "s/m");
      expect(t.description).toBe(`${sshd.username}@127.0.0.1:${sshd.port}`);
      const r = await t.exec("echo out; echo err >&2; exit 3");
      expect(r).toEqual({ code: 3, signal: null, stdout: "out\n", stderr: "err\n" });
      const chunks: Buffer[] = [];
      const s = await t.exec("printf abc", { onStdout: (c) => chunks.push(c) });
      expect(s.stdout).toBe("");
      expect(Buffer.concat(chunks).toString()).toBe("abc");
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("writes files over SFTP with a mode, under the login home for ~/ paths", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    try {
      const t = pool.get(sshTargetOf(sshd), "s/m");
      const name = `.bw-test-${process.pid}-${Date.now()}`;
      await t.writeFile(`~/${name}`, "hello 'world'\n", 0o640);
      const r = await t.exec(`stat -c %a "$HOME/${name}" && cat "$HOME/${name}" && rm "$HOME/${name}"`);
      expect(r.stdout).toBe("640\nhello 'world'\n");
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("trusts the host key on first use, then accepts only that key", async () => {
    const store = new InMemoryHostKeyStore();
    const pool = new SshPool({ hostKeys: store });
    try {
      await pool.get(sshTargetOf(sshd), "s/first").exec("true");
      expect(await store.get("s/first")).toBe(sshd.hostKeyFingerprint);
      await pool.get(sshTargetOf(sshd), "s/first").exec("true");
    } finally {
      await pool.close();
    }

    const wrong = "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const changed = new InMemoryHostKeyStore();
    await changed.set("s/changed", wrong);
    const other = new SshPool({ hostKeys: changed });
    try {
      const error = await other.get(sshTargetOf(sshd), "s/changed").exec("true").catch((e) => e);
      expect(error).toBeInstanceOf(BenchwrightError);
      expect(error.code).toBe("host_key_mismatch");
      expect(error.detail).toContain("127.0.0.1");
      expect(error.detail).toContain(wrong);
      expect(error.detail).toContain(sshd.hostKeyFingerprint);
      expect(error.detail).not.toContain("PRIVATE");
    } finally {
      await other.close();
    }
  }, 20_000);

  it("checks the host key for each machine sharing a connection", async () => {
    const store = new InMemoryHostKeyStore();
    await store.set("s/b", "SHA256:changed");
    const pool = new SshPool({ hostKeys: store });
    try {
      await pool.get(sshTargetOf(sshd), "s/a").exec("true");
      const error = await pool.get(sshTargetOf(sshd), "s/b").exec("true").catch((e) => e);
      expect(error.code).toBe("host_key_mismatch");
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("shares one connection among handles and queues channels beyond the limit", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), maxChannelsPerConnection: 3 });
    try {
      const runs = Array.from({ length: 12 }, (_, i) => pool.get(sshTargetOf(sshd), "s/m").exec(`sleep 0.05; echo ${i}`));
      const results = await Promise.all(runs);
      expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `${i}\n`));
      expect(pool.connectionsOpened).toBe(1);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("fails a command in flight when the connection drops, then reconnects", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    try {
      const t = pool.get(sshTargetOf(sshd), "s/m");
      const pending = t.exec("sleep 5");
      await new Promise((r) => setTimeout(r, 500));
      expect(await sshd.killSessionProcesses()).toBeGreaterThan(0);
      const error = await pending.catch((e) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error.retryable).toBe(true);
      expect((await t.exec("echo back")).stdout).toBe("back\n");
      expect(pool.connectionsOpened).toBe(2);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("refuses an unknown user key without retrying", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-key-"));
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    try {
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "k")]);
      const privateKey = readFileSync(join(dir, "k"), "utf8");
      const error = await pool
        .get({ ...sshTargetOf(sshd), privateKey }, "s/x")
        .exec("true")
        .catch((e) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error.retryable).toBe(false);
      expect(pool.connectionsOpened).toBe(0);
      expect(String(error.message)).not.toContain("PRIVATE");
      expect(String(error.message)).not.toContain(privateKey.split("\n")[1]);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
