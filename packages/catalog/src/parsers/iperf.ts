import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// iperf 2's `-y C` report, one line per stream and, from some versions, a sum line with id -1:
// `<time>,<local ip>,<local port>,<remote ip>,<remote port>,<id>,<start>-<end>,<bytes>,<bit/s>`.
// Interval lines (-i) would repeat a stream's id; only the line of the whole run counts.
const LINE = /^\d{14},[^,]*,\d+,[^,]*,\d+,(-?\d+),([\d.]+)-([\d.]+),(\d+),(\d+)(?:,|$)/;

/** iperf (2): the client's throughput over the whole run, every stream summed. */
export const iperf: Parser = (output) => {
  const streams = new Map<string, { start: number; end: number; bytes: number; bps: number }>();
  for (const line of output.split(/\r?\n/)) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const [start, end] = [Number(m[2]), Number(m[3])];
    const seen = streams.get(m[1]!);
    // The widest interval of a stream is its whole run.
    if (!seen || end - start > seen.end - seen.start) streams.set(m[1]!, { start, end, bytes: Number(m[4]), bps: Number(m[5]) });
  }
  const sum = streams.get("-1");
  const each = [...streams.entries()].filter(([id]) => id !== "-1").map(([, s]) => s);
  if (!sum && each.length === 0) return [];
  const total = sum ?? { bytes: each.reduce((n, s) => n + s.bytes, 0), bps: each.reduce((n, s) => n + s.bps, 0) };
  const out: Metric[] = [];
  push(out, "bits_per_second", toNumber(String(total.bps)), "bit/s");
  push(out, "transferred_bytes", toNumber(String(total.bytes)), "bytes");
  push(out, "streams", each.length || 1, "streams");
  return out;
};
