import { findJsonObject, isObject, jsonNumber, push } from "./util.js";
const PERCENTILES = [
  ["50.000000", "p50"],
  ["95.000000", "p95"],
  ["99.000000", "p99"]
];
function nsToUs(v) {
  const n = jsonNumber(v);
  return n === void 0 ? void 0 : Number((n / 1e3).toFixed(3));
}
function directionMetrics(out, stats, tags) {
  if (!isObject(stats) || !(jsonNumber(stats.total_ios) ?? jsonNumber(stats.io_bytes) ?? 0)) return;
  push(out, "iops", jsonNumber(stats.iops), "IO/s", tags);
  push(out, "bandwidth", jsonNumber(stats.bw), "KiB/s", tags);
  const lat = isObject(stats.lat_ns) ? stats.lat_ns : {};
  push(out, "lat_mean_us", nsToUs(lat.mean), "us", tags);
  const clat = isObject(stats.clat_ns) ? stats.clat_ns : {};
  push(out, "clat_mean_us", nsToUs(clat.mean), "us", tags);
  const percentiles = isObject(clat.percentile) ? clat.percentile : {};
  for (const [key, label] of PERCENTILES) push(out, `clat_${label}_us`, nsToUs(percentiles[key]), "us", tags);
}
const fio = (output) => {
  const doc = findJsonObject(output, (v) => Array.isArray(v.jobs));
  if (!doc) return [];
  const jobs = doc.jobs.filter(isObject);
  const out = [];
  for (const job of jobs) {
    if (jsonNumber(job.error) !== 0) continue;
    const base = jobs.length > 1 && typeof job.jobname === "string" ? { job: job.jobname } : {};
    directionMetrics(out, job.read, { ...base, direction: "read" });
    directionMetrics(out, job.write, { ...base, direction: "write" });
  }
  return out;
};
export {
  fio
};
//# sourceMappingURL=fio.js.map
