import { push, toNumber } from "./util.js";
const TYPE = /^transaction type: (?:<builtin: )?([^>\n]+?)>?\s*$/m;
const PROCESSED = /^number of transactions actually processed: (\d+)/m;
const FAILED = /^number of failed transactions: (\d+)/m;
const LATENCY = /^latency average = ([\d.]+) ms\s*$/m;
const CONNECTION = /^initial connection time = ([\d.]+) ms\s*$/m;
const TPS = /^tps = ([\d.]+) \((?:without initial connection time|excluding connections establishing)\)\s*$/m;
const pgbench = (output) => {
  const tps = toNumber(TPS.exec(output)?.[1]);
  if (tps === void 0) return [];
  const out = [];
  const type = TYPE.exec(output)?.[1];
  const tags = type ? { type } : void 0;
  push(out, "tps", tps, "transactions/s", tags);
  push(out, "latency_avg_ms", toNumber(LATENCY.exec(output)?.[1]), "ms", tags);
  push(out, "transactions", toNumber(PROCESSED.exec(output)?.[1]), "transactions", tags);
  push(out, "failed_transactions", toNumber(FAILED.exec(output)?.[1]), "transactions", tags);
  push(out, "connection_time_ms", toNumber(CONNECTION.exec(output)?.[1]), "ms", tags);
  return out;
};
export {
  pgbench
};
//# sourceMappingURL=pgbench.js.map
