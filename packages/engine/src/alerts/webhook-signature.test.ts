import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook, verifyWebhookSignature } from "./webhook-signature.js";

const SECRET = "whsec_test-secret";
const BODY = '{"id":"change:1","event":"regression","data":{}}';
const AT = new Date("2026-11-26T05:00:00Z");

describe("webhook signatures (Stripe's scheme)", () => {
  it("signs t.<body> with HMAC-SHA256 in hex, t in unix seconds", () => {
    const header = signWebhook(SECRET, BODY, AT);
    const t = AT.getTime() / 1000;
    const expected = createHmac("sha256", SECRET).update(`${t}.${BODY}`).digest("hex");
    expect(header).toBe(`t=${t},v1=${expected}`);
  });

  it("verifies its own signature, from a string or the raw bytes", () => {
    const header = signWebhook(SECRET, BODY, AT);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, AT)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, Buffer.from(BODY), 300, new Date(AT.getTime() + 299_000))).toBe(true);
  });

  it("refuses another secret, another body, a stale or future time, and malformed headers", () => {
    const header = signWebhook(SECRET, BODY, AT);
    expect(verifyWebhookSignature("whsec_other", header, BODY, 300, AT)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, `${BODY} `, 300, AT)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, new Date(AT.getTime() + 301_000))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, BODY, 300, new Date(AT.getTime() - 301_000))).toBe(false);
    for (const bad of [
      undefined,
      null,
      "",
      "v1=abc",
      "t=abc,v1=00",
      `t=1,t=2,${header.split(",")[1]}`,
      header.replace(/v1=.*/, "v1=zz"),
      header.split(",")[0],
    ]) {
      expect(verifyWebhookSignature(SECRET, bad, BODY, 300, AT), String(bad)).toBe(false);
    }
  });

  it("takes any v1 of several (a secret being replaced), and ignores other schemes", () => {
    const header = signWebhook(SECRET, BODY, AT);
    const [t, v1] = header.split(",");
    expect(verifyWebhookSignature(SECRET, `${t},v0=deadbeef,v1=${"0".repeat(64)},${v1}`, BODY, 300, AT)).toBe(true);
  });

  it("makes secrets of 32 random bytes, each new", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
