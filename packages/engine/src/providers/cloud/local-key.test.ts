import { describe, expect, it } from "vitest";
import { loadSsh2 } from "../../transport/ssh2-module.js";
import { localKey } from "./local-key.js";

describe("a cloud session's own key", () => {
  it("is one ssh2 reads, every time: ssh2's generator writes about one key in 256 short", async () => {
    const { utils } = await loadSsh2();
    // 3,000 keys: with the generator's 1/256 flaw unmended, one of them is unreadable but for
    // a chance of (255/256)^3000, under 0.001%.
    for (let i = 0; i < 3000; i++) {
      const key = utils.parseKey((await localKey({ name: "mine" })).privateKey!);
      expect(key instanceof Error ? key.message : key.type).toBe("ssh-ed25519");
    }
  });

  it("is made only when no public key is given", async () => {
    expect(await localKey({ name: "mine", publicKey: "ssh-ed25519 AAAA" })).toEqual({ id: "mine" });
    expect((await localKey({ name: "mine" })).privateKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
  });
});
