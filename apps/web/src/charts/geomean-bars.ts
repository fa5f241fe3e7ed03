import type { PlanReport } from "@benchwright/sdk";
import { figure } from "../format.js";
import type { Bar } from "./metric-bar-option.js";

/**
 * The report's ranking as bars for `metricBarOption`: each target's geometric mean of its ratios
 * to the baseline (above 1 is better), best first, its interval as the error bar. The baseline is
 * grey; a target whose whole interval lies above 1 green, below 1 red, as the verdicts are. A
 * target without a geometric mean (no cell measured) has no bar: the ranking lists it.
 */
export function geomeanBars(report: PlanReport): Bar[] {
  return report.targets.flatMap((t) => {
    if (t.geomean === null) return [];
    const interval = t.geomean_ci_low !== null && t.geomean_ci_high !== null ? { low: t.geomean_ci_low, high: t.geomean_ci_high } : {};
    const baseline = t.target === report.baseline;
    const tone = baseline
      ? "verdict-baseline"
      : interval.low !== undefined && interval.low > 1
        ? "verdict-better"
        : interval.high !== undefined && interval.high < 1
          ? "verdict-worse"
          : undefined;
    const note = [t.rank !== null ? `rank ${t.rank}` : "", baseline ? "baseline" : "", `${t.cells} cell${t.cells === 1 ? "" : "s"}`].filter(Boolean).join(", ");
    return [{ label: t.target, value: t.geomean, ...interval, note, ...(tone ? { tone } : {}) }];
  });
}

/** `×1.5 [1.2, 1.9]`: a geometric mean as the ranking table says it. */
export function geomeanText(t: PlanReport["targets"][number]): string {
  if (t.geomean === null) return "–";
  const interval = t.geomean_ci_low !== null && t.geomean_ci_high !== null ? ` [${figure(t.geomean_ci_low)}, ${figure(t.geomean_ci_high)}]` : "";
  return `×${figure(t.geomean)}${interval}`;
}
