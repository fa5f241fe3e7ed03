import type { LineSeriesOption } from "echarts/charts";
import type { GridComponentOption, MarkAreaComponentOption, MarkLineComponentOption, TooltipComponentOption } from "echarts/components";
import type { ComposeOption } from "echarts/core";
import type { Change, Series, SeriesPoint } from "@benchwright/sdk";
import { h } from "../dom.js";
import { figure } from "../format.js";
import { elementTooltip, pageTextStyle, TEXT, valueAxisLook } from "./chart-style.js";

/** The option of a series' trend: what `seriesTrendOption` builds and `chartElement` draws. */
export type SeriesTrendOption = ComposeOption<
  LineSeriesOption | GridComponentOption | TooltipComponentOption | MarkLineComponentOption | MarkAreaComponentOption
>;

const MEAN = "#2557c7";
const BAND = "rgba(37, 87, 199, 0.15)";
const REGRESSION = "#c0392b";
const IMPROVEMENT = "#17803d";

/** `+4.1%`, `-10.0%`: a change's size as a person reads it. */
export function percent(size: number): string {
  return `${size > 0 ? "+" : ""}${(size * 100).toFixed(1)}%`;
}

/** `tool_version: a → b`, one per fact that differs across the change. */
export function factsText(change: Pick<Change, "facts_changed">): string[] {
  return change.facts_changed.map((f) => `${f.fact}: ${f.before.join(", ") || "?"} → ${f.after.join(", ") || "?"}`);
}

/** A change point's label on the chart: where, which way, how much, and what changed with it. */
export function changeLabel(change: Change): string {
  const facts = factsText(change);
  return [`#${change.seq} ${change.direction} ${percent(change.size)}`, ...(facts.length ? facts : ["no fact changed"])].join("\n");
}

/** A point as its tooltip tells it. */
function pointText(p: SeriesPoint, unit: string): string {
  const interval = p.ci_low !== null && p.ci_high !== null ? ` [${figure(p.ci_low)}, ${figure(p.ci_high)}]` : "";
  return `#${p.seq} ${p.at}: ${figure(p.mean)}${interval} ${unit} (n=${p.n})`;
}

/**
 * The points' means as a line over their place in the series (x: `seq`), the 95% interval a band
 * around it (a transparent line at the low ends, and the band's height stacked on it), each
 * change a vertical line at its first point labelled with its size and the facts that changed,
 * the baseline a shaded range. Pure: tested without a DOM.
 */
export function seriesTrendOption(series: Pick<Series, "metric" | "baseline">, points: readonly SeriesPoint[], changes: readonly Change[]): SeriesTrendOption {
  const unit = series.metric.unit;
  const withBand = points.filter((p) => p.ci_low !== null && p.ci_high !== null);
  const baseline = series.baseline;
  // The change points' labels stand above the plot, level, one line per fact: room for the tallest.
  const labelLines = Math.max(0, ...changes.map((c) => 1 + Math.max(1, c.facts_changed.length)));
  const seqs = [...points.map((p) => p.seq), ...changes.map((c) => c.seq)];
  const middle = seqs.length ? (Math.min(...seqs) + Math.max(...seqs)) / 2 : 0;
  return {
    animation: false,
    textStyle: pageTextStyle(),
    grid: { left: 70, right: 30, top: 40 + 15 * labelLines, bottom: 40 },
    // From the first point, not from 0: a series' points are numbered from 1, and a long one's first are gone.
    xAxis: {
      type: "value",
      name: "point",
      nameLocation: "middle",
      nameGap: 25,
      minInterval: 1,
      ...(seqs.length ? { min: Math.min(...seqs, baseline?.from ?? Number.POSITIVE_INFINITY) } : {}),
      axisLabel: { color: TEXT },
    },
    yAxis: {
      type: "value",
      name: `${series.metric.name} (${unit}, ${series.metric.better} is better)`,
      nameLocation: "middle",
      nameGap: 55,
      scale: true,
      ...valueAxisLook(),
    },
    tooltip: elementTooltip("item", (item) => {
      if (item?.componentType === "markLine") {
        const change = changes[item.dataIndex ?? -1];
        return h("div", { style: "white-space: pre" }, change ? changeLabel(change) : "");
      }
      const p = points[item?.dataIndex ?? -1];
      return h("div", {}, p ? pointText(p, unit) : "");
    }),
    series: [
      // The band: its low ends, transparent, then its height stacked on them and filled.
      {
        type: "line",
        name: "interval low",
        stack: "interval",
        silent: true,
        symbol: "none",
        lineStyle: { opacity: 0 },
        data: withBand.map((p) => [p.seq, p.ci_low!]),
      },
      {
        type: "line",
        name: "95% interval",
        stack: "interval",
        silent: true,
        symbol: "none",
        lineStyle: { opacity: 0 },
        areaStyle: { color: BAND },
        data: withBand.map((p) => [p.seq, p.ci_high! - p.ci_low!]),
      },
      {
        type: "line",
        name: "mean",
        symbolSize: 6,
        itemStyle: { color: MEAN },
        lineStyle: { color: MEAN },
        z: 4,
        data: points.map((p) => [p.seq, p.mean]),
        markLine: {
          symbol: "none",
          data: changes.map((c) => ({
            xAxis: c.seq,
            name: c.id,
            lineStyle: { color: c.direction === "regression" ? REGRESSION : IMPROVEMENT, type: "dashed", width: 2 },
            // Level text above the line's top, running away from the nearer edge so that it stays in the chart.
            label: {
              formatter: changeLabel(c),
              position: "end",
              align: c.seq > middle ? "right" : "left",
              lineHeight: 15,
              color: c.direction === "regression" ? REGRESSION : IMPROVEMENT,
            },
          })),
        },
        markArea: baseline
          ? {
              silent: true,
              itemStyle: { color: "rgba(120, 120, 120, 0.12)" },
              label: { color: TEXT, position: "insideTop" },
              data: [[{ name: `baseline #${baseline.from}–#${baseline.to}`, xAxis: baseline.from - 0.5 }, { xAxis: baseline.to + 0.5 }]],
            }
          : undefined,
      },
    ],
  };
}
