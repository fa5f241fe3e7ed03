import { existsSync } from "node:fs";
import { connect } from "node:net";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { startSshd, sshTargetOf } from "./sshd.js";

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
});
