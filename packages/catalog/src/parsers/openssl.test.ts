import { describe, expect, it } from "vitest";
import { recordedOutput } from "./recorded-output.js";
import { openssl } from "./openssl.js";

const { fixture, ctx } = recordedOutput("openssl");

describe("openssl speed parser", () => {
  it("reads bytes per second of a hash and of a cipher, per block size", () => {
    expect(openssl(fixture("sha256"), ctx("sha256"))).toEqual([
      { name: "bytes_per_second", value: 1781907456, unit: "B/s", tags: { algorithm: "sha256", block_size: "16384" } },
    ]);
    expect(openssl(fixture("aes_256_gcm"), ctx("aes_256_gcm"))).toEqual([
      { name: "bytes_per_second", value: 3464953856, unit: "B/s", tags: { algorithm: "AES-256-GCM", block_size: "16384" } },
    ]);
  });

  it("reads every block size of a run over several", () => {
    const out = "+H:16:64\n+F:6:sha256:1000.5:2000.25\n";
    expect(openssl(out, ctx("sha256")).map((m) => [m.tags?.block_size, m.value])).toEqual([
      ["16", 1000.5],
      ["64", 2000.25],
    ]);
  });

  it("reads signs and verifies per second of RSA, ECDSA and EdDSA", () => {
    expect(openssl(fixture("rsa2048"), ctx("rsa2048"))).toEqual([
      { name: "signs_per_second", value: 3475, unit: "signs/s", tags: { algorithm: "rsa2048" } },
      { name: "verifies_per_second", value: 58242, unit: "verifies/s", tags: { algorithm: "rsa2048" } },
    ]);
    expect(openssl(fixture("ecdsa_p256"), ctx("ecdsa_p256")).map((m) => [m.name, m.value, m.tags?.algorithm])).toEqual([
      ["signs_per_second", 49827.272727, "ecdsa256"],
      ["verifies_per_second", 16412, "ecdsa256"],
    ]);
    expect(openssl(fixture("ed25519"), ctx("ed25519")).map((m) => [m.name, m.value, m.tags?.algorithm])).toEqual([
      ["signs_per_second", 24174.747475, "ed25519"],
      ["verifies_per_second", 7618, "ed25519"],
    ]);
  });

  it("gives [] for an unfinished run, an unknown algorithm and garbage", () => {
    const full = fixture("sha256");
    expect(openssl(full.slice(0, full.indexOf("+F:")), ctx("sha256"))).toEqual([]);
    expect(openssl("speed: Unknown algorithm nope\n", ctx("sha256"))).toEqual([]);
    expect(openssl("+F:6:sha256:1.0\n", ctx("sha256"))).toEqual([]);
    expect(openssl("", ctx("sha256"))).toEqual([]);
  });
});
