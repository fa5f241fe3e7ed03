import { toNumber } from "./util.js";
const LINE = /^\s*BW_METRIC[ \t]+(.*?)\s*$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const TAG = /^([A-Za-z_][A-Za-z0-9_.:-]*)=(\S*)$/;
const keyvalue = (output) => {
  const metrics = [];
  for (const line of output.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m) continue;
    const [name, valueText, unit, ...rest] = m[1].split(/[ \t]+/);
    const value = toNumber(valueText);
    if (!name || !NAME.test(name) || value === void 0 || !unit) continue;
    const tags = {};
    let ok = true;
    for (const token of rest) {
      const t = TAG.exec(token);
      if (!t) {
        ok = false;
        break;
      }
      tags[t[1]] = t[2];
    }
    if (!ok) continue;
    metrics.push(Object.keys(tags).length > 0 ? { name, value, unit, tags } : { name, value, unit });
  }
  return metrics;
};
export {
  keyvalue
};
//# sourceMappingURL=keyvalue.js.map
