import type { ComparedMetric } from "@benchwright/sdk";

/** Metrics of one unit: their charts share a kind of scale and sit together, collapsible. */
export interface MetricGroup {
  unit: string;
  metrics: ComparedMetric[];
  /** How many figures (executions × metrics) got each verdict, the baseline's left out. */
  verdicts: Partial<Record<string, number>>;
}

/** The comparison's metrics grouped by unit, groups and metrics in the order the API gave them. */
export function groupByUnit(metrics: readonly ComparedMetric[]): MetricGroup[] {
  const groups = new Map<string, MetricGroup>();
  for (const m of metrics) {
    const group = groups.get(m.unit) ?? { unit: m.unit, metrics: [], verdicts: {} };
    group.metrics.push(m);
    for (const f of m.figures) if (f.verdict !== "baseline") group.verdicts[f.verdict] = (group.verdicts[f.verdict] ?? 0) + 1;
    groups.set(m.unit, group);
  }
  return [...groups.values()];
}

/** Past this many metrics the page opens with the groups folded: the overview table says what is in them. */
export const FOLD_ABOVE = 6;

/** Every figure of the metrics, measured values and interval ends, is at least 0: the axis starts at zero. */
export function cannotBeNegative(m: ComparedMetric): boolean {
  return m.figures.every((f) => f.min >= 0 && f.values.every((v) => v >= 0));
}
