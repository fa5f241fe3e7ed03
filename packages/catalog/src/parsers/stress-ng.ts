import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// `stress-ng: metrc: [pid] cpu  2041  10.00  19.96  0.01  204.07  102.21`
// (older releases say `info:` instead of `metrc:`).
const ROW = /^stress-ng:\s+(?:metrc|info):\s+\[\d+\]\s+([a-z][\w-]*)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$/;
// `\b` keeps "unsuccessful run completed" out.
const SUCCESS = /\bsuccessful run completed\b/;

/** stress-ng `--metrics-brief`: bogo ops and their rates per stressor, from a successful run only. */
export const stressNg: Parser = (output) => {
  if (!SUCCESS.test(output) || /unsuccessful run completed/.test(output)) return [];
  const out: Metric[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = ROW.exec(line.trim());
    if (!m) continue;
    const tags = { stressor: m[1]! };
    push(out, "bogo_ops", toNumber(m[2]), "ops", tags);
    push(out, "real_time", toNumber(m[3]), "s", tags);
    push(out, "usr_time", toNumber(m[4]), "s", tags);
    push(out, "sys_time", toNumber(m[5]), "s", tags);
    push(out, "bogo_ops_per_second_real", toNumber(m[6]), "ops/s", tags);
    push(out, "bogo_ops_per_second_usr_sys", toNumber(m[7]), "ops/s", tags);
  }
  return out;
};
