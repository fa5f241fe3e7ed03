import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { Client } from "ssh2";
import { describe, expect, it } from "vitest";
import { createNetNamespace } from "./netns.js";
import { startSshd, sshTargetOf, type SshdHarness } from "./sshd.js";

/** The fingerprint of a raw (wire format) host key, as `ssh-keygen -l` prints it. */
function fingerprintOf(key: Buffer): string {
  return "SHA256:" + createHash("sha256").update(key).digest("base64").replace(/=+$/, "");
}

/** A bare ssh2 client on the harness, checking its host key. */
function connectTo(sshd: SshdHarness): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.on("ready", () => resolve(client)).on("error", reject);
    client.connect({ ...sshTargetOf(sshd), hostVerifier: (key: Buffer) => fingerprintOf(key) === sshd.hostKeyFingerprint });
  });
}

/** What a command prints in a session of the harness. */
async function sessionOutput(sshd: SshdHarness, command: string): Promise<string> {
  const client = await connectTo(sshd);
  try {
    return await new Promise<string>((resolve, reject) =>
      client.exec(command, (e, stream) => {
        if (e) return reject(e);
        let out = "";
        stream.on("data", (d: Buffer) => (out += d)).on("close", () => resolve(out));
      }),
    );
  } finally {
    client.end();
  }
}

describe("startSshd", () => {
  it("serves SSH on a free local port and cleans up on stop", async () => {
    const sshd = await startSshd();
    const dir = dirname(sshd.privateKeyPath);
    try {
      expect(sshd.host).toBe("127.0.0.1");
      expect(sshd.hostKeyFingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      expect(sshd.privateKey).toContain("OPENSSH PRIVATE KEY");
      expect(sshTargetOf(sshd)).toEqual({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey });
      const banner = await new Promise<string>((resolve, reject) => {
        const socket = connect(sshd.port, sshd.host);
        socket.once("data", (d) => (socket.destroy(), resolve(d.toString())));
        socket.once("error", reject);
      });
      expect(banner).toMatch(/^SSH-2\.0-/);
      // The listener alone: no session to cut.
      await new Promise((r) => setTimeout(r, 100));
      expect(await sshd.killSessionProcesses()).toBe(0);
    } finally {
      await sshd.stop();
    }
    expect(existsSync(dir)).toBe(false);
  }, 20_000);

  it("keeps OpenSSH's stock limits: an 11th session on one connection is refused", async () => {
    const sshd = await startSshd();
    const client = await connectTo(sshd);
    try {
      const sessions = await Promise.allSettled(
        Array.from(
          { length: 11 },
          () =>
            new Promise<void>((resolve, reject) =>
              client.exec("sleep 1", (e, stream) => {
                if (e) return reject(e);
                stream.on("close", () => resolve());
                stream.resume();
              }),
            ),
        ),
      );
      const refused = sessions.filter((s) => s.status === "rejected").map((s) => (s as PromiseRejectedResult).reason.message);
      expect(refused).toEqual(["(SSH) Channel open failure: open failed"]);
    } finally {
      client.end();
      await sshd.stop();
    }
  }, 20_000);

  it("runs its sessions on the CPUs it is given, on all of them by default, and in a CPU group when asked", async () => {
    const allowed = async (sshd: SshdHarness) => {
      try {
        return (await sessionOutput(sshd, "grep Cpus_allowed_list /proc/self/status")).split(":")[1].trim();
      } finally {
        await sshd.stop();
      }
    };
    expect(await allowed(await startSshd({ cpus: "0" }))).toBe("0");
    // In a CPU group of its own, with one CPU's worth of time, removed with the server.
    const grouped = await startSshd({ cpuShares: 4096, cpuLimit: 1 });
    const group = /^\d+:(cpu)?:(\/bw-test-[0-9a-f]{8})$/m.exec(await sessionOutput(grouped, "cat /proc/self/cgroup"));
    expect(group).not.toBeNull();
    const dir = group![1] ? `/sys/fs/cgroup/cpu${group![2]}` : `/sys/fs/cgroup${group![2]}`;
    expect(existsSync(dir)).toBe(true);
    const limit = group![1] ? readFileSync(`${dir}/cpu.cfs_quota_us`, "utf8").trim() : readFileSync(`${dir}/cpu.max`, "utf8").split(" ")[0];
    expect(limit).toBe("100000");
    await grouped.stop();
    expect(existsSync(dir)).toBe(false);
    const all = availableParallelism();
    expect(await allowed(await startSshd())).toBe(all === 1 ? "0" : `0-${all - 1}`);
  }, 20_000);

  it("runs in a network namespace of its own, on its address there, reached over its veth pair", async () => {
    const ns = await createNetNamespace();
    try {
      const sshd = await startSshd({ netns: ns });
      try {
        expect(sshd.host).toBe(ns.address);
        // The session's network is the namespace's: its veth end has the address, and no other interface of this host is there.
        const addresses = await sessionOutput(sshd, "ip -o -4 addr show | awk '{print $4}'");
        expect(addresses.split("\n").filter(Boolean).sort()).toEqual([`${ns.address}/30`, "127.0.0.1/8"].sort());
      } finally {
        await sshd.stop();
      }
    } finally {
      await ns.remove();
    }
  }, 20_000);

  it("suspends the listener and cuts every connection for an outage, then resumes", async () => {
    const sshd = await startSshd();
    try {
      const client = await connectTo(sshd);
      const cut = new Promise<void>((resolve) => client.on("close", () => resolve()));
      expect(await sshd.suspend()).toBe(1);
      await cut;
      // A connection made during the outage gets no banner until it ends.
      const socket = connect(sshd.port, sshd.host);
      let banner = "";
      const answered = new Promise<void>((resolve) => socket.on("data", (d) => ((banner += d.toString()), resolve())));
      await new Promise((r) => setTimeout(r, 300));
      expect(banner).toBe("");
      sshd.resume();
      await answered;
      socket.destroy();
      expect(banner).toMatch(/^SSH-2\.0-/);
      (await connectTo(sshd)).end();
    } finally {
      await sshd.stop();
    }
  }, 20_000);
});
