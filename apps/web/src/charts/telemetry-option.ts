import type { LineSeriesOption } from "echarts/charts";
import type { GridComponentOption, LegendComponentOption, MarkLineComponentOption, TooltipComponentOption } from "echarts/components";
import type { ComposeOption } from "echarts/core";
import type { TelemetryTrack } from "@benchwright/sdk";
import { figure } from "../format.js";
import { gridLines, pageTextStyle, TEXT } from "./chart-style.js";

/** The option of a machine's telemetry during a run: what `telemetryOption` builds and `chartElement` draws. */
export type TelemetryOption = ComposeOption<LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption | MarkLineComponentOption>;

/** The CPU's kinds of time, each with its colour: steal and iowait stand out, as what a reader looks for. */
const CPU_LINES = [
  { field: "cpu_user", name: "user %", color: "#6f8fd8" },
  { field: "cpu_system", name: "system %", color: "#8f9bb3" },
  { field: "cpu_iowait", name: "iowait %", color: "#d99a2b" },
  { field: "cpu_steal", name: "steal %", color: "#d0543f" },
] as const;
const RUN_QUEUE = "#3a9d5d";

/** The chart's height: one plot and its legend. */
export const TELEMETRY_HEIGHT = 260;

/**
 * The machine's CPU time by kind (percent of all its CPUs, left axis) and its run queue (tasks,
 * right axis, with its CPU count as a dashed line: above it, tasks waited for a CPU) over the
 * seconds of the run. Pure: tested without a DOM.
 */
export function telemetryOption(track: Pick<TelemetryTrack, "cpus" | "samples">): TelemetryOption {
  // From the repetition's start (the first sample's `from`, the sampler's first reading), else
  // from its first sample (samples stored before `from` was kept).
  const first = track.samples[0];
  const start = first ? Date.parse(first.from ?? first.at) : 0;
  // To a hundredth: a short repetition's last two samples may be 30 ms apart, and a tenth drew them on one x.
  const seconds = track.samples.map((s) => Math.round((Date.parse(s.at) - start) / 10) / 100);
  const end = seconds.at(-1) ?? 0;
  // A short run has a sample or two: their points are drawn, a line needs two.
  const showSymbol = track.samples.length < 3;
  return {
    animation: false,
    textStyle: pageTextStyle(),
    grid: { left: 55, right: 55, top: 40, bottom: 40 },
    legend: { top: 0, textStyle: { color: TEXT } },
    tooltip: { trigger: "axis", confine: true, valueFormatter: (v) => (typeof v === "number" ? figure(v) : String(v)) },
    xAxis: { type: "value", name: "s", nameLocation: "middle", nameGap: 25, min: 0, max: end > 0 ? undefined : 1, axisLabel: { color: TEXT } },
    yAxis: [
      { type: "value", name: "%", min: 0, max: 100, axisLabel: { color: TEXT }, splitLine: gridLines() },
      { type: "value", name: "run queue", min: 0, minInterval: 1, axisLabel: { color: TEXT }, splitLine: { show: false } },
    ],
    series: [
      ...CPU_LINES.map(
        ({ field, name, color }): LineSeriesOption => ({
          type: "line",
          name,
          showSymbol,
          color,
          data: track.samples.map((s, i) => [seconds[i], s[field]]),
        }),
      ),
      {
        type: "line",
        name: "run queue",
        yAxisIndex: 1,
        step: "end",
        showSymbol,
        color: RUN_QUEUE,
        data: track.samples.map((s, i) => [seconds[i], s.run_queue]),
        markLine: {
          silent: true,
          symbol: "none",
          lineStyle: { type: "dashed", color: RUN_QUEUE },
          // Inside the plot, above the line: at its end, outside, it sat on the run queue axis' own tick of the same number.
          label: { formatter: `${track.cpus} CPUs`, color: TEXT, position: "insideEndTop" },
          data: [{ yAxis: track.cpus }],
        },
      },
    ],
  };
}
