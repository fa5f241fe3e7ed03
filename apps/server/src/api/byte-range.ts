/** What a Range header asks of a representation of `size` bytes. */
export type ByteRangeRequest =
  /** No Range, several ranges, another unit or a malformed one: the whole representation (RFC 9110 14.2 lets a server ignore it). */
  | { kind: "whole" }
  /** Bytes `start` to `end`, both included, within the representation. */
  | { kind: "range"; start: number; end: number }
  /** A valid range of which no byte exists: 416. */
  | { kind: "unsatisfiable" };

const SPEC = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * Reads one byte range (RFC 9110 14.1.2): `bytes=a-b`, `bytes=a-` or `bytes=-n`. A last
 * position past the end is cut to the end, and a suffix longer than the representation
 * means all of it.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRangeRequest {
  const whole = { kind: "whole" } as const;
  if (header === undefined) return whole;
  const eq = header.indexOf("=");
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== "bytes") return whole;
  const specs = header.slice(eq + 1).split(",");
  if (specs.length !== 1) return whole;
  const m = SPEC.exec(specs[0]);
  if (!m || (m[1] === "" && m[2] === "")) return whole;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const last = m[2] === "" ? Infinity : Number(m[2]);
  if (last < start) return whole;
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "range", start, end: Math.min(last, size - 1) };
}
