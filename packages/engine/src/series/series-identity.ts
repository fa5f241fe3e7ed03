import type { Series } from "@benchwright/contract";
import type { SeriesRow } from "../model/series.js";

type Identity = Pick<SeriesRow, "tool" | "workload" | "params" | "metric" | "tags" | "provider" | "service_type" | "unit" | "better">;

/**
 * What a series follows, as its view and its changes' show it. A metric whose definition does
 * not say which way is better is read as higher-is-better, as most figures (throughputs) are.
 */
export function seriesIdentity(s: Identity): Pick<Series, "benchmark" | "metric" | "target"> {
  return {
    benchmark: { tool: s.tool, workload: s.workload, params: s.params as Series["benchmark"]["params"] },
    metric: { name: s.metric, tags: s.tags, unit: s.unit, better: s.better ?? "higher" },
    target: { provider: s.provider, service_type: s.service_type },
  };
}
