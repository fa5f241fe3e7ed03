import { push, toNumber } from "./util.js";
const RESULT = /^Throughput\s+([\d.]+)\s+MB\/sec\s+(\d+)\s+clients?\s+\d+\s+procs?\s+max_latency=([\d.]+)\s+ms\s*$/m;
const dbench = (output) => {
  const m = RESULT.exec(output);
  if (!m) return [];
  const out = [];
  const tags = { clients: m[2] };
  push(out, "throughput", toNumber(m[1]), "MB/s", tags);
  push(out, "max_latency_ms", toNumber(m[3]), "ms", tags);
  return out;
};
export {
  dbench
};
//# sourceMappingURL=dbench.js.map
