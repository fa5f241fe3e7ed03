import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// `Throughput 126.137 MB/sec  2 clients  2 procs  max_latency=84.468 ms`, once, at the end.
const RESULT = /^Throughput\s+([\d.]+)\s+MB\/sec\s+(\d+)\s+clients?\s+\d+\s+procs?\s+max_latency=([\d.]+)\s+ms\s*$/m;

/** dbench: throughput and the longest latency of all clients. */
export const dbench: Parser = (output) => {
  const m = RESULT.exec(output);
  if (!m) return [];
  const out: Metric[] = [];
  const tags = { clients: m[2]! };
  push(out, "throughput", toNumber(m[1]), "MB/s", tags);
  push(out, "max_latency_ms", toNumber(m[3]), "ms", tags);
  return out;
};
