import type { Metric } from "../types.js";

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** A finite number from a tool's text, or undefined: `nan`, `inf` and empty fields are not figures. */
export function toNumber(text: string | undefined): number | undefined {
  if (text === undefined || !DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A finite number from parsed JSON, or undefined. */
export function jsonNumber(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** Appends a metric only when the value is really there. */
export function push(out: Metric[], name: string, value: number | undefined, unit: string, tags?: Record<string, string>): void {
  if (value === undefined) return;
  const m: Metric = { name, value, unit };
  if (tags && Object.keys(tags).length > 0) m.tags = { ...tags };
  out.push(m);
}

/**
 * The first JSON object in the output that `accept` likes. Tools print warnings before their
 * JSON (fio) and scripts may add log lines after it. fio and iperf3 put the braces of their
 * top-level object at column 0, so only those are candidates: each `{` is tried against each
 * later `}`, outermost first, with a cap so that a large log of near-JSON stays cheap.
 */
export function findJsonObject(output: string, accept: (v: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
  const starts: number[] = [];
  const ends: number[] = [];
  const re = /^\{|^\}[ \t]*\r?$/gm;
  for (let m = re.exec(output); m; m = re.exec(output)) {
    if (m[0] === "{") starts.push(m.index);
    else ends.push(m.index + 1);
  }
  let attempts = 0;
  for (const s of starts) {
    for (let i = ends.length - 1; i >= 0 && attempts < MAX_JSON_ATTEMPTS; i--, attempts++) {
      const e = ends[i]!;
      if (e <= s) break;
      try {
        const v: unknown = JSON.parse(output.slice(s, e));
        if (isObject(v) && accept(v)) return v;
      } catch {
        // Not a whole object between these two braces; try a shorter span.
      }
    }
  }
  return undefined;
}

const MAX_JSON_ATTEMPTS = 64;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
