import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures in Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The time is signed with the body, so a receiver that checks it against its clock refuses a
 * delivery replayed later.
 */
export const SIGNATURE_HEADER = "Benchwright-Signature";

/** A new signing secret: shown to its creator once, kept sealed. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(body).digest("hex");
}

/** The Benchwright-Signature value of `body` sent at `at`. */
export function signWebhook(secret: string, body: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
}

/**
 * Whether `header` signs `body` (the raw bytes as received, before any JSON parsing) with
 * `secret`, at a time within `toleranceSeconds` of `now`. Any `v1` of the header may match
 * (a sender may sign with several secrets while one replaces another).
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  body: string | Buffer,
  toleranceSeconds = 300,
  now: Date = new Date(),
): boolean {
  if (!header) return false;
  const pairs = header.split(",").map((part) => {
    const at = part.indexOf("=");
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  });
  const times = pairs.filter(([k]) => k === "t").map(([, v]) => v);
  if (times.length !== 1 || !/^\d{1,12}$/.test(times[0]!)) return false;
  const t = Number(times[0]);
  if (Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, t, body), "hex");
  return pairs.filter(([k, v]) => k === "v1" && /^[0-9a-f]{64}$/i.test(v)).some(([, v]) => timingSafeEqual(Buffer.from(v, "hex"), expected));
}
