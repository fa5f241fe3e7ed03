import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// `redis-benchmark --csv`: a header row, then one row per test, every field quoted:
// "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",...,"max_latency_ms"
const ROW = /^"[^"]*"(?:,"[^"]*")*$/;
const fields = (line: string) => line.slice(1, -1).split('","');

/** Metric name of a CSV column: `rps`, and `<x>_latency_ms` as `latency_<x>_ms`. */
function metricName(column: string): string | undefined {
  if (column === "rps") return "requests_per_second";
  const m = /^(\w+?)_latency_ms$/.exec(column);
  return m ? `latency_${m[1]}_ms` : undefined;
}

/** redis-benchmark's CSV report: requests per second and latencies, per test (SET, GET...). */
export const redisBenchmark: Parser = (output) => {
  const out: Metric[] = [];
  let header: string[] | undefined;
  for (const line of output.split(/\r?\n/)) {
    const text = line.trim();
    if (!ROW.test(text)) continue;
    const cells = fields(text);
    if (cells[0] === "test") {
      header = cells;
      continue;
    }
    if (!header || cells.length !== header.length) continue;
    const tags = { test: cells[0]! };
    header.forEach((column, i) => {
      const name = metricName(column);
      if (name) push(out, name, toNumber(cells[i]), name === "requests_per_second" ? "requests/s" : "ms", tags);
    });
  }
  return out;
};
