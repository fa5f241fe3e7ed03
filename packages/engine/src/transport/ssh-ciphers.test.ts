import { type CipherAlgorithm, Client } from "ssh2";
import { describe, expect, it } from "vitest";
import { SSH_CIPHERS } from "./ssh-ciphers.js";

describe("the ciphers offered to a host", () => {
  it("put AES-CTR before AES-GCM, which ssh2 without its binding deciphers with a new OpenSSL object per packet", () => {
    const ctr = SSH_CIPHERS.findIndex((c) => c.endsWith("-ctr"));
    const gcm = SSH_CIPHERS.findIndex((c) => c.includes("-gcm"));
    expect(ctr).toBe(0);
    expect(gcm).toBeGreaterThan(ctr);
  });

  it("are all ciphers ssh2 supports (it refuses an unknown one when connecting)", () => {
    const connect = (cipher: string[]) => () => {
      // An unknown name on purpose: typed as the names ssh2 knows, checked by ssh2 itself.
      const offered = cipher as CipherAlgorithm[];
      const client = new Client();
      client.on("error", () => {});
      // Nothing listens on port 1: the connection fails after the algorithms were checked.
      client.connect({ host: "127.0.0.1", port: 1, username: "u", algorithms: { cipher: offered }, hostVerifier: () => false });
      client.end();
    };
    expect(connect(["aes128-nope"])).toThrow(/Unsupported algorithm/);
    expect(connect([...SSH_CIPHERS])).not.toThrow();
  });
});
