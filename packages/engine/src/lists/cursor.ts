import { BenchwrightError } from "../errors.js";
import type { SessionKey } from "../store/list-where.js";

/**
 * The cursors of the lists: base64url of the last record's key, the list it belongs to first
 * (`s` sessions, `e` executions). Opaque to clients; what is inside is checked as strictly as
 * any input, so that a cursor this server did not give is a 400, never a failed query.
 */
export function sessionCursor(key: SessionKey): string {
  return encode(["s", key.created, key.id]);
}

export function executionCursor(seq: string): string {
  return encode(["e", seq]);
}

export function planCursor(seq: string): string {
  return encode(["p", seq]);
}

export function planRunCursor(seq: string): string {
  return encode(["r", seq]);
}

export function seriesCursor(seq: string): string {
  return encode(["t", seq]);
}

export function seriesPointCursor(seq: number): string {
  return encode(["q", String(seq)]);
}

export function changeCursor(seq: string): string {
  return encode(["c", seq]);
}

export function seriesSeqOf(cursor: string): string {
  return seqOf(cursor, "t", "series");
}

export function seriesPointSeqOf(cursor: string): number {
  const seq = Number(seqOf(cursor, "q", "series points"));
  // A point's seq is a database integer: a larger one is no cursor this server gave.
  if (seq > 2 ** 31 - 1) throw badCursor("series points");
  return seq;
}

export function changeSeqOf(cursor: string): string {
  return seqOf(cursor, "c", "changes");
}

export function webhookCursor(seq: string): string {
  return encode(["w", seq]);
}

export function deliveryCursor(seq: string): string {
  return encode(["d", seq]);
}

export function tokenCursor(seq: string): string {
  return encode(["t", seq]);
}

export function tokenSeqOf(cursor: string): string {
  return seqOf(cursor, "t", "tokens");
}

export function sessionKeyOf(cursor: string): SessionKey {
  const parts = decode(cursor);
  const [kind, created, id] = parts;
  if (parts.length !== 3 || kind !== "s" || !isUtcMicros(created) || typeof id !== "string" || !UUID.test(id)) throw badCursor("sessions");
  return { created, id };
}

export function executionSeqOf(cursor: string): string {
  return seqOf(cursor, "e", "executions");
}

export function planSeqOf(cursor: string): string {
  return seqOf(cursor, "p", "plans");
}

export function planRunSeqOf(cursor: string): string {
  return seqOf(cursor, "r", "plan runs");
}

export function webhookSeqOf(cursor: string): string {
  return seqOf(cursor, "w", "webhooks");
}

export function auditCursor(seq: string): string {
  return encode(["a", seq]);
}

export function auditSeqOf(cursor: string): string {
  return seqOf(cursor, "a", "audit entries");
}

export function deliverySeqOf(cursor: string): string {
  return seqOf(cursor, "d", "webhook deliveries");
}

function seqOf(cursor: string, kind: string, list: string): string {
  const parts = decode(cursor);
  const [said, seq] = parts;
  if (parts.length !== 2 || said !== kind || typeof seq !== "string" || !/^[0-9]{1,18}$/.test(seq)) throw badCursor(list);
  return seq;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encode(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

function decode(cursor: string): unknown[] {
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parts)) return parts;
  } catch {
    // not JSON: refused below
  }
  return [];
}

/** `2026-11-21T10:15:00.123456Z`, as Store.findSessions writes a session's key, and a real time. */
function isUtcMicros(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(value)) return false;
  const date = new Date(value.slice(0, 23) + "Z");
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === value.slice(0, 19);
}

function badCursor(list: string): BenchwrightError {
  const message = `is not a cursor of the ${list} list: send the X-Next-Cursor of the page before, as it came`;
  return new BenchwrightError("validation_failed", `cursor ${message}`, { errors: [{ path: "/query/cursor", message }] });
}
