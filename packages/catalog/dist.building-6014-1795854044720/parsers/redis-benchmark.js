import { push, toNumber } from "./util.js";
const ROW = /^"[^"]*"(?:,"[^"]*")*$/;
const fields = (line) => line.slice(1, -1).split('","');
function metricName(column) {
  if (column === "rps") return "requests_per_second";
  const m = /^(\w+?)_latency_ms$/.exec(column);
  return m ? `latency_${m[1]}_ms` : void 0;
}
const redisBenchmark = (output) => {
  const out = [];
  let header;
  for (const line of output.split(/\r?\n/)) {
    const text = line.trim();
    if (!ROW.test(text)) continue;
    const cells = fields(text);
    if (cells[0] === "test") {
      header = cells;
      continue;
    }
    if (!header || cells.length !== header.length) continue;
    const tags = { test: cells[0] };
    header.forEach((column, i) => {
      const name = metricName(column);
      if (name) push(out, name, toNumber(cells[i]), name === "requests_per_second" ? "requests/s" : "ms", tags);
    });
  }
  return out;
};
export {
  redisBenchmark
};
//# sourceMappingURL=redis-benchmark.js.map
