import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSshd, sshTargetOf, type SshdHarness, createPasswordUser, type PasswordUser } from "@benchwright/testing";
import { BenchwrightError } from "../errors.js";
import { InMemoryHostKeyStore } from "./host-key.js";
import { SshPool } from "./ssh-pool.js";
import { TransportError } from "./transport-error.js";

describe("SshPool against a private sshd", () => {
  let sshd: SshdHarness;
  /** sshd's log since the test began. */
  let sshdLog: string[] = [];
  beforeEach(() => {
    sshdLog = [];
  });
  beforeAll(async () => {
    sshd = await startSshd({ onLog: (line) => sshdLog.push(line) });
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
      const error = await other
        .get(sshTargetOf(sshd), "s/changed")
        .exec("true")
        .catch((e) => e);
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
      const error = await pool
        .get(sshTargetOf(sshd), "s/b")
        .exec("true")
        .catch((e) => e);
      expect(error.code).toBe("host_key_mismatch");
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("shares one connection among handles and queues channels beyond the limit", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), maxChannelsPerConnection: 3, maxConnectionsPerTarget: 1 });
    try {
      const runs = Array.from({ length: 12 }, (_, i) => pool.get(sshTargetOf(sshd), "s/m").exec(`sleep 0.05; echo ${i}`));
      const results = await Promise.all(runs);
      expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `${i}\n`));
      expect(pool.connectionsOpened).toBe(1);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("takes a refused channel as the server's limit: waits and tries again instead of failing", async () => {
    // More channels than the stock MaxSessions of 10, on one connection: the server refuses some.
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), maxChannelsPerConnection: 20, maxConnectionsPerTarget: 1 });
    try {
      const t = pool.get(sshTargetOf(sshd), "s/m");
      const name = `.bw-refused-${process.pid}-${Date.now()}`;
      const runs = Array.from({ length: 16 }, (_, i) => t.exec(`sleep 0.5; echo ${i}`));
      // SFTP sessions count against the same limit.
      const writes = Array.from({ length: 6 }, (_, i) => t.writeFile(`~/${name}-${i}`, `${i}`));
      const results = await Promise.all(runs);
      await Promise.all(writes);
      expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `${i}\n`));
      expect((await t.exec(`cat "$HOME"/${name}-*; rm "$HOME"/${name}-*`)).stdout).toBe("012345");
      expect(pool.connectionsOpened).toBe(1);
      // The server did refuse some (OpenSSH logs "no more sessions").
      expect(sshdLog.some((line) => line.includes("no more sessions"))).toBe(true);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("opens more connections for the same credential when one's channels are all in use", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
    try {
      const handles = [pool.get(sshTargetOf(sshd), "s1/m"), pool.get(sshTargetOf(sshd), "s2/m")];
      const runs = Array.from({ length: 30 }, (_, i) => handles[i % 2].exec(`sleep 1; echo ${i}`));
      const results = await Promise.all(runs);
      expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `${i}\n`));
      expect(pool.connectionsOpened).toBeGreaterThanOrEqual(4);
    } finally {
      await pool.close();
    }
  }, 20_000);

  it("closes connections left idle, and opens one again when needed", async () => {
    const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore(), idleTimeoutMs: 200 });
    try {
      const t = pool.get(sshTargetOf(sshd), "s/m");
      await t.exec("true");
      expect(pool.connectionsOpen).toBe(1);
      while (pool.connectionsOpen > 0) await new Promise((r) => setTimeout(r, 50));
      expect((await t.exec("echo again")).stdout).toBe("again\n");
      expect(pool.connectionsOpened).toBe(2);
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

  describe("serves each credential its own connections only", () => {
    const marker = () => `.bw-cred-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;

    /** Tries, with `privateKey`, everything a session does over the pool; each must be refused as an authentication failure. */
    async function expectRefused(pool: SshPool, privateKey: string, machineKey: string, reason: RegExp): Promise<void> {
      const t = pool.get({ ...sshTargetOf(sshd), privateKey }, machineKey);
      const name = marker();
      for (const attempt of [() => t.exec(`touch "$HOME/${name}"; echo ran`), () => t.writeFile(`~/${name}`, "written")]) {
        const error = await attempt().catch((e) => e);
        expect(error).toBeInstanceOf(TransportError);
        expect(error.retryable).toBe(false);
        expect(String(error.message)).toMatch(reason);
        expect(String(error.message)).not.toContain("PRIVATE");
        for (const line of privateKey.split("\n").filter((l) => l.length > 8)) expect(String(error.message)).not.toContain(line);
      }
      // Nothing ran nor was written under the refused credential.
      const owner = pool.get(sshTargetOf(sshd), "check/owner");
      expect((await owner.exec(`test -e "$HOME/${name}"`)).code).toBe(1);
    }

    async function expectServed(pool: SshPool, machineKey: string): Promise<void> {
      const t = pool.get(sshTargetOf(sshd), machineKey);
      const name = marker();
      await t.writeFile(`~/${name}`, "mine");
      expect((await t.exec(`cat "$HOME/${name}"; rm "$HOME/${name}"`)).stdout).toBe("mine");
    }

    it("refuses an unauthorized key on a host where another key's connection is open and warm", async () => {
      const stranger = await sshd.generateUserKey({ authorized: false });
      const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
      try {
        await expectServed(pool, "owner/m");
        const opened = pool.connectionsOpened;
        expect(pool.connectionsOpen).toBe(1);
        await expectRefused(pool, stranger, "intruder/m", /authentication/i);
        // The owner's connection is untouched and still serves it.
        await expectServed(pool, "owner/m");
        expect(pool.connectionsOpened).toBe(opened);
      } finally {
        await pool.close();
      }
    }, 20_000);

    it("does not let a refused key lock out the owner, in the reverse order", async () => {
      const stranger = await sshd.generateUserKey({ authorized: false });
      const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
      try {
        await expectRefused(pool, stranger, "intruder/m", /authentication/i);
        await expectServed(pool, "owner/m");
        await expectRefused(pool, stranger, "intruder/m", /authentication/i);
        await expectServed(pool, "owner/m");
      } finally {
        await pool.close();
      }
    }, 20_000);

    it("refuses a malformed key (or a key_path pointing at another file) without touching the owner's connection", async () => {
      const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
      try {
        await expectServed(pool, "owner/m");
        await expectRefused(pool, readFileSync("/etc/hostname", "utf8"), "intruder/hostname", /key|format|unsupported/i);
        await expectRefused(
          pool,
          "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
          "intruder/garbled",
          /key|format|unsupported/i,
        );
        await expectServed(pool, "owner/m");
      } finally {
        await pool.close();
      }
    }, 20_000);

    it("serves a second authorized key on its own connection", async () => {
      const other = await sshd.generateUserKey();
      const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
      try {
        await expectServed(pool, "owner/m");
        const t = pool.get({ ...sshTargetOf(sshd), privateKey: other }, "other/m");
        expect(t.description).toBe(`${sshd.username}@127.0.0.1:${sshd.port}`);
        expect((await t.exec("echo other")).stdout).toBe("other\n");
        expect(pool.connectionsOpen).toBe(2);
      } finally {
        await pool.close();
      }
    }, 20_000);
  });

  describe("with passwords", () => {
    let pwd: SshdHarness;
    let user: PasswordUser;
    beforeAll(async () => {
      user = await createPasswordUser();
      pwd = await startSshd({ passwordAuthentication: true });
    }, 20_000);
    afterAll(async () => {
      await pwd?.stop();
      await user?.remove();
    }, 20_000);
    const target = (password: string) => ({ host: pwd.host, port: pwd.port, username: user.username, password });

    it("logs in with a password, and never serves a wrong password on the right one's open connection", async () => {
      const pool = new SshPool({ hostKeys: new InMemoryHostKeyStore() });
      try {
        const right = pool.get(target(user.password), "right/m");
        expect((await right.exec("id -un")).stdout).toBe(`${user.username}\n`);
        expect(pool.connectionsOpen).toBe(1);
        const wrongPassword = `${user.password}x`;
        const error = await pool
          .get(target(wrongPassword), "wrong/m")
          .exec("echo ran")
          .catch((e) => e);
        expect(error).toBeInstanceOf(TransportError);
        expect(error.retryable).toBe(false);
        expect(String(error.message)).toMatch(/authentication/i);
        expect(String(error.message)).not.toContain(user.password);
        // The right password's connection stayed open and still serves it, and only it.
        expect(pool.connectionsOpen).toBe(1);
        expect((await right.exec("echo still")).stdout).toBe("still\n");
        // A key-less target without its password is another credential too.
        const none = await pool
          .get({ host: pwd.host, port: pwd.port, username: user.username }, "none/m")
          .exec("true")
          .catch((e) => e);
        expect(none).toBeInstanceOf(TransportError);
      } finally {
        await pool.close();
      }
    }, 30_000);
  });

  it("retries handshakes a server past its MaxStartups drops", async () => {
    // A server that takes 2 unauthenticated connections at once: 12 clients connecting together.
    const strictLog: string[] = [];
    const strict = await startSshd({ extraConfig: ["MaxStartups 2"], onLog: (line) => strictLog.push(line) });
    const pools = Array.from(
      { length: 12 },
      () => new SshPool({ hostKeys: new InMemoryHostKeyStore(), reconnect: { attempts: 12, initialDelayMs: 50, maxDelayMs: 1000 } }),
    );
    try {
      const results = await Promise.all(pools.map((pool, i) => pool.get(sshTargetOf(strict), "s/m").exec(`echo ${i}`)));
      expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `${i}\n`));
      expect(strictLog.some((line) => line.includes("past MaxStartups"))).toBe(true);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await strict.stop();
    }
  }, 30_000);

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
