import { push, toNumber } from "./util.js";
const ANSI = /\x1b\[[0-9;]*m/g;
const AVG = /^sockperf: =+> avg-latency=([\d.]+) /m;
const PERCENTILE = /^sockperf: ---> percentile ([\d.]+) =\s*([\d.]+)\s*$/gm;
const MINMAX = /^sockperf: ---> <(MIN|MAX)> observation =\s*([\d.]+)\s*$/gm;
const RATE = /^sockperf: Summary: Message Rate is (\d+) \[msg\/sec\]/m;
const BANDWIDTH = /^sockperf: Summary: BandWidth is ([\d.]+) MBps/m;
const PERCENTILES = { "50.000": "latency_p50_us", "99.000": "latency_p99_us", "99.900": "latency_p99_9_us" };
const sockperf = (raw) => {
  const output = raw.replace(ANSI, "");
  if (!/^sockperf: Test ended/m.test(output)) return [];
  const out = [];
  push(out, "latency_avg_us", toNumber(AVG.exec(output)?.[1]), "us");
  for (const m of output.matchAll(PERCENTILE)) {
    const name = PERCENTILES[m[1]];
    if (name) push(out, name, toNumber(m[2]), "us");
  }
  for (const m of output.matchAll(MINMAX)) push(out, m[1] === "MIN" ? "latency_min_us" : "latency_max_us", toNumber(m[2]), "us");
  push(out, "message_rate", toNumber(RATE.exec(output)?.[1]), "msg/s");
  push(out, "bandwidth", toNumber(BANDWIDTH.exec(output)?.[1]), "MiB/s");
  return out;
};
export {
  sockperf
};
//# sourceMappingURL=sockperf.js.map
