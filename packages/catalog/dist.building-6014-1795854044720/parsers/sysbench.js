import { push, toNumber } from "./util.js";
const MARKER = /^\s*BW_SECTION\b(.*)$/;
const BANNER = /^sysbench \d+\.\d+/;
const REPORT_END = /execution time \(avg\/stddev\):/;
function markerTags(rest) {
  const tags = {};
  for (const token of rest.trim().split(/\s+/)) {
    const eq = token.indexOf("=");
    if (eq > 0) tags[token.slice(0, eq)] = token.slice(eq + 1);
  }
  return tags;
}
function sections(output) {
  const out = [];
  let current;
  for (const line of output.split(/\r?\n/)) {
    const marker = MARKER.exec(line);
    if (marker) {
      current = { tags: markerTags(marker[1]), lines: [], banner: false };
      out.push(current);
      continue;
    }
    if (BANNER.test(line)) {
      if (!current || current.banner) {
        current = { tags: {}, lines: [], banner: false };
        out.push(current);
      }
      current.banner = true;
    }
    current?.lines.push(line);
  }
  return out;
}
function field(text, re) {
  return toNumber(re.exec(text)?.[1]);
}
function sectionMetrics(section) {
  const text = section.lines.join("\n");
  if (!REPORT_END.test(text) || /^FATAL:/m.test(text)) return [];
  const tags = { ...section.tags };
  const threads = /^Number of threads:\s*(\d+)/m.exec(text)?.[1];
  if (!tags.threads && threads) tags.threads = threads;
  const out = [];
  const totalTime = field(text, /total time:\s*([\d.]+)s/);
  const totalEvents = field(text, /total number of events:\s*(\d+)/);
  let eps = field(text, /events per second:\s*([\d.]+)/);
  if (eps === void 0 && totalTime && totalEvents !== void 0) eps = Number((totalEvents / totalTime).toFixed(2));
  push(out, "events_per_second", eps, "events/s", tags);
  push(out, "total_time", totalTime, "s", tags);
  push(out, "total_events", totalEvents, "events", tags);
  const latency = /Latency \(ms\):([\s\S]*?)(?:\n\s*\n|$)/.exec(text)?.[1] ?? "";
  push(out, "latency_min_ms", field(latency, /min:\s*([\d.]+)/), "ms", tags);
  push(out, "latency_avg_ms", field(latency, /avg:\s*([\d.]+)/), "ms", tags);
  push(out, "latency_max_ms", field(latency, /max:\s*([\d.]+)/), "ms", tags);
  push(out, "latency_p95_ms", field(latency, /95th percentile:\s*([\d.]+)/), "ms", tags);
  const transferred = /([\d.]+) MiB transferred \(([\d.]+) MiB\/sec\)/.exec(text);
  push(out, "memory_transferred", toNumber(transferred?.[1]), "MiB", tags);
  push(out, "memory_throughput", toNumber(transferred?.[2]), "MiB/s", tags);
  push(out, "operations_per_second", field(text, /Total operations:\s*\d+\s*\(\s*([\d.]+) per second\)/), "ops/s", tags);
  push(out, "transactions_per_second", field(text, /^\s*transactions:\s*\d+\s*\(([\d.]+) per sec\.\)/m), "tx/s", tags);
  push(out, "queries_per_second", field(text, /^\s*queries:\s*\d+\s*\(([\d.]+) per sec\.\)/m), "queries/s", tags);
  push(out, "ignored_errors", field(text, /^\s*ignored errors:\s*(\d+)/m), "errors", tags);
  const done = (v) => v === 0 ? void 0 : v;
  push(out, "reads_per_second", done(field(text, /reads\/s:\s*([\d.]+)/)), "reads/s", tags);
  push(out, "writes_per_second", done(field(text, /writes\/s:\s*([\d.]+)/)), "writes/s", tags);
  push(out, "fsyncs_per_second", done(field(text, /fsyncs\/s:\s*([\d.]+)/)), "fsyncs/s", tags);
  push(out, "read_throughput", done(field(text, /read, MiB\/s:\s*([\d.]+)/)), "MiB/s", tags);
  push(out, "write_throughput", done(field(text, /written, MiB\/s:\s*([\d.]+)/)), "MiB/s", tags);
  return out;
}
const sysbench = (output) => sections(output).flatMap(sectionMetrics);
export {
  sysbench
};
//# sourceMappingURL=sysbench.js.map
