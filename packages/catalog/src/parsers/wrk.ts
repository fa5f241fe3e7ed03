import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// wrk prints times with their unit (`596.39us`, `1.25ms`, `2.00s`, `1.00m`) and sizes in
// binary multiples (`9.34MB` is 9.34 MiB).
const TIME_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

function ms(text: string | undefined): number | undefined {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text ?? "");
  const n = toNumber(m?.[1]);
  return n === undefined ? undefined : n * TIME_MS[m![2]!]!;
}

function bytes(text: string | undefined): number | undefined {
  const m = /^([\d.]+)(B|KB|MB|GB|TB)$/.exec(text ?? "");
  const n = toNumber(m?.[1]);
  return n === undefined ? undefined : n * SIZE_BYTES[m![2]!]!;
}

/** wrk: requests and bytes per second, the latency's mean and percentiles (with --latency), errors. */
export const wrk: Parser = (output) => {
  const rps = /^Requests\/sec:\s+([\d.]+)\s*$/m.exec(output);
  if (!rps) return [];
  const out: Metric[] = [];
  push(out, "requests_per_second", toNumber(rps[1]), "req/s");
  push(out, "transfer_bytes_per_second", bytes(/^Transfer\/sec:\s+(\S+)\s*$/m.exec(output)?.[1]), "bytes/s");
  push(out, "latency_avg_ms", ms(/^\s+Latency\s+(\S+)\s/m.exec(output)?.[1]), "ms");
  for (const p of ["50", "75", "90", "99"]) push(out, `latency_p${p}_ms`, ms(new RegExp(`^\\s+${p}%\\s+(\\S+)\\s*$`, "m").exec(output)?.[1]), "ms");
  const socket = /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m.exec(output);
  const non2xx = toNumber(/^\s*Non-2xx or 3xx responses:\s+(\d+)/m.exec(output)?.[1]) ?? 0;
  const socketErrors = socket ? socket.slice(1, 5).reduce((n, v) => n + Number(v), 0) : 0;
  push(out, "errors", socketErrors + non2xx, "requests");
  return out;
};
