import { push, toNumber } from "./util.js";
const TIME_MS = { us: 1e-3, ms: 1, s: 1e3, m: 6e4, h: 36e5 };
const SIZE_BYTES = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
function ms(text) {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text ?? "");
  const n = toNumber(m?.[1]);
  return n === void 0 ? void 0 : n * TIME_MS[m[2]];
}
function bytes(text) {
  const m = /^([\d.]+)(B|KB|MB|GB|TB)$/.exec(text ?? "");
  const n = toNumber(m?.[1]);
  return n === void 0 ? void 0 : n * SIZE_BYTES[m[2]];
}
const wrk = (output) => {
  const rps = /^Requests\/sec:\s+([\d.]+)\s*$/m.exec(output);
  if (!rps) return [];
  const out = [];
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
export {
  wrk
};
//# sourceMappingURL=wrk.js.map
