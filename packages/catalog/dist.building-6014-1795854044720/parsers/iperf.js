import { push, toNumber } from "./util.js";
const LINE = /^\d{14},[^,]*,\d+,[^,]*,\d+,(-?\d+),([\d.]+)-([\d.]+),(\d+),(\d+)(?:,|$)/;
const iperf = (output) => {
  const streams = /* @__PURE__ */ new Map();
  for (const line of output.split(/\r?\n/)) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const [start, end] = [Number(m[2]), Number(m[3])];
    const seen = streams.get(m[1]);
    if (!seen || end - start > seen.end - seen.start) streams.set(m[1], { start, end, bytes: Number(m[4]), bps: Number(m[5]) });
  }
  const sum = streams.get("-1");
  const each = [...streams.entries()].filter(([id]) => id !== "-1").map(([, s]) => s);
  if (!sum && each.length === 0) return [];
  const total = sum ?? { bytes: each.reduce((n, s) => n + s.bytes, 0), bps: each.reduce((n, s) => n + s.bps, 0) };
  const out = [];
  push(out, "bits_per_second", toNumber(String(total.bps)), "bit/s");
  push(out, "transferred_bytes", toNumber(String(total.bytes)), "bytes");
  push(out, "streams", each.length || 1, "streams");
  return out;
};
export {
  iperf
};
//# sourceMappingURL=iperf.js.map
