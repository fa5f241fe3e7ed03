import { push, toNumber } from "./util.js";
const AVG = /^AVG\s+Method:\s+(\w+)\s+Elapsed:\s+([\d.]+)\s+MiB:\s+[\d.]+\s+Copy:\s+([\d.]+) MiB\/s\s*$/;
const mbw = (output) => {
  const out = [];
  for (const line of output.split(/\r?\n/)) {
    const m = AVG.exec(line.trim());
    if (!m) continue;
    const tags = { method: m[1].toLowerCase() };
    push(out, "copy_bandwidth", toNumber(m[3]), "MiB/s", tags);
    push(out, "copy_seconds", toNumber(m[2]), "s", tags);
  }
  return out;
};
export {
  mbw
};
//# sourceMappingURL=mbw.js.map
