import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// `AVG	Method: MEMCPY	Elapsed: 0.00118	MiB: 8.00000	Copy: 6788.290 MiB/s`: the mean of the
// runs (each run also has a line of its own, numbered instead of AVG).
const AVG = /^AVG\s+Method:\s+(\w+)\s+Elapsed:\s+([\d.]+)\s+MiB:\s+[\d.]+\s+Copy:\s+([\d.]+) MiB\/s\s*$/;

/** mbw: mean copy bandwidth and time per method. */
export const mbw: Parser = (output) => {
  const out: Metric[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = AVG.exec(line.trim());
    if (!m) continue;
    const tags = { method: m[1]!.toLowerCase() };
    push(out, "copy_bandwidth", toNumber(m[3]), "MiB/s", tags);
    push(out, "copy_seconds", toNumber(m[2]), "s", tags);
  }
  return out;
};
