import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkHostKey, hostKeyFingerprint, InMemoryHostKeyStore } from "./host-key.js";

describe("hostKeyFingerprint", () => {
  it("matches ssh-keygen -l", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-hk-"));
    try {
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "k")]);
      const blob = Buffer.from(readFileSync(join(dir, "k.pub"), "utf8").split(" ")[1], "base64");
      const expected = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", join(dir, "k.pub")], { encoding: "utf8" }).split(" ")[1];
      expect(hostKeyFingerprint(blob)).toBe(expected);
      expect(hostKeyFingerprint(blob)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("checkHostKey", () => {
  it("records the first key, accepts it again and refuses another", async () => {
    const store = new InMemoryHostKeyStore();
    const a = Buffer.from("key-a");
    expect(await checkHostKey(store, "m", "u@h:22", a)).toBeUndefined();
    expect(await store.get("m")).toBe(hostKeyFingerprint(a));
    expect(await checkHostKey(store, "m", "u@h:22", a)).toBeUndefined();
    const error = await checkHostKey(store, "m", "u@h:22", Buffer.from("key-b"));
    expect(error?.code).toBe("host_key_mismatch");
    expect(error?.detail).toContain("u@h:22");
    expect(error?.detail).toContain(hostKeyFingerprint(a));
    expect(error?.detail).toContain(hostKeyFingerprint(Buffer.from("key-b")));
  });
});
