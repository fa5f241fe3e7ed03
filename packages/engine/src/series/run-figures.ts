import type { StoredMetric } from "../model/metrics.js";
import type { RunFigure } from "../model/series.js";
import { metricKey } from "../results/comparison.js";
import { summarize } from "../results/statistics.js";

/**
 * A successful run's figures, one per metric (name and tags) as its series records it: the
 * mean of every figure of that metric in the run (one per repetition, and per machine where
 * several measured it, as comparisons pool them) with its 95% interval, none for one figure.
 */
export function runFigures(metrics: readonly StoredMetric[]): RunFigure[] {
  const groups = new Map<string, StoredMetric[]>();
  for (const m of metrics) {
    if (!Number.isFinite(m.value)) continue;
    const key = metricKey(m);
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0];
    const stats = summarize(group.map((m) => m.value));
    const one = stats.n < 2;
    return {
      metric: first.name,
      tags: first.tags ?? {},
      unit: first.unit,
      better: first.better ?? group.find((m) => m.better)?.better ?? null,
      n: stats.n,
      mean: stats.mean,
      ci_low: one ? null : stats.ci_low,
      ci_high: one ? null : stats.ci_high,
    };
  });
}
