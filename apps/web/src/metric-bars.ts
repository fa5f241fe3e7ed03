import type { Metric } from "@benchwright/sdk";
import type { Bar } from "./charts/metric-bar-option.js";
import { figure, tagsText } from "./format.js";

/** The figures of one metric name in an execution: one chart, one bar per figure (tags, machine). */
export interface MetricGroup {
  name: string;
  unit: string;
  better?: Metric["better"];
  bars: Bar[];
  /** Every value measured is at least 0: the axis and the error bars stop at zero. */
  nonNegative: boolean;
}

/** An execution's metrics as charts: one per name (its figures share a unit), in the order reported. */
export function executionMetricGroups(list: readonly Metric[]): MetricGroup[] {
  const byName = new Map<string, Metric[]>();
  for (const m of list) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  return [...byName].map(([name, figures]) => ({
    name,
    unit: figures[0]!.unit,
    better: figures[0]!.better,
    bars: figures.map((m) => ({
      label: [tagsText(m.tags), figures.length > 1 && !tagsText(m.tags) ? m.vm : ""].filter(Boolean).join(" ") || name,
      value: m.value,
      // A repeated run reports its mean as `value`, and the mean's confidence interval.
      ...(m.stats
        ? {
            low: m.stats.ci_low,
            high: m.stats.ci_high,
            note: `95% CI [${figure(m.stats.ci_low)}, ${figure(m.stats.ci_high)}], n=${m.stats.n}`,
          }
        : {}),
    })),
    nonNegative: figures.every((m) => [m.value, ...(m.values ?? [])].every((v) => v >= 0)),
  }));
}
