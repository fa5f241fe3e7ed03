import { push, toNumber } from "./util.js";
const ROW = /^stress-ng:\s+(?:metrc|info):\s+\[\d+\]\s+([a-z][\w-]*)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$/;
const SUCCESS = /\bsuccessful run completed\b/;
const stressNg = (output) => {
  if (!SUCCESS.test(output) || /unsuccessful run completed/.test(output)) return [];
  const out = [];
  for (const line of output.split(/\r?\n/)) {
    const m = ROW.exec(line.trim());
    if (!m) continue;
    const tags = { stressor: m[1] };
    push(out, "bogo_ops", toNumber(m[2]), "ops", tags);
    push(out, "real_time", toNumber(m[3]), "s", tags);
    push(out, "usr_time", toNumber(m[4]), "s", tags);
    push(out, "sys_time", toNumber(m[5]), "s", tags);
    push(out, "bogo_ops_per_second_real", toNumber(m[6]), "ops/s", tags);
    push(out, "bogo_ops_per_second_usr_sys", toNumber(m[7]), "ops/s", tags);
  }
  return out;
};
export {
  stressNg
};
//# sourceMappingURL=stress-ng.js.map
