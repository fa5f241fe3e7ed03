import type { BarSeriesOption, CustomSeriesOption } from "echarts/charts";
import type { GridComponentOption, TooltipComponentOption } from "echarts/components";
import type { ComposeOption } from "echarts/core";
import { h } from "../dom.js";
import { figure } from "../format.js";
import { elementTooltip, pageTextStyle, TEXT, valueAxisLook } from "./chart-style.js";
import { errorBarSeries } from "./error-bar-series.js";

/** The option of a bar chart with error bars: what `metricBarOption` builds and `chartElement` draws. */
export type MetricBarOption = ComposeOption<BarSeriesOption | CustomSeriesOption | GridComponentOption | TooltipComponentOption>;

/** One bar: its value and, when known, the interval drawn as its error bar. */
export interface Bar {
  label: string;
  value: number;
  low?: number;
  high?: number;
  /** Text after the value (a ratio, a verdict). */
  note?: string;
  /** What colours the bar, such as the verdict (`verdict-better`). */
  tone?: string;
}

export interface MetricBarChartOptions {
  unit?: string;
  /**
   * The figure cannot be negative (a time, a rate): an interval that reaches below zero (a
   * t-interval of few, spread values) is drawn from zero, and the axis starts there.
   */
  nonNegative?: boolean;
}

/** Room for the labels on the left and the values and notes on the right, as the SVG chart had. */
const LABEL_WIDTH = 190;
const NOTE_WIDTH = 240;
const ROW_HEIGHT = 30;
const TOP = 8;
const AXIS = 28;

const BAR = "#6f8fd8";
/** The verdicts' colours, as the overview table's cells (style.css). */
const TONES: Record<string, string> = {
  "verdict-baseline": "#8f9bb3",
  "verdict-better": "#3a9d5d",
  "verdict-worse": "#d0543f",
};

/** The chart's height for this many bars: one row each, so that fourteen charts of three bars stay short. */
export function metricBarHeight(count: number): number {
  return count * ROW_HEIGHT + TOP + AXIS;
}

/**
 * Horizontal bars from zero, one row per bar in the order given (top down), each bar's interval
 * as a whisker (a `custom` series), the value and note on the right. Pure: tested without a DOM.
 */
export function metricBarOption(bars: readonly Bar[], options: MetricBarChartOptions = {}): MetricBarOption {
  const unit = options.unit ? ` ${options.unit}` : "";
  const intervals = bars.flatMap((bar, category) =>
    hasInterval(bar)
      ? [options.nonNegative ? { category, low: Math.max(0, bar.low), high: Math.max(0, bar.high) } : { category, low: bar.low, high: bar.high }]
      : [],
  );
  const rowAxis = { type: "category" as const, inverse: true, axisTick: { show: false } };
  return {
    animation: false,
    textStyle: pageTextStyle(),
    grid: { left: LABEL_WIDTH, right: NOTE_WIDTH, top: TOP, bottom: AXIS },
    xAxis: {
      type: "value",
      ...(options.nonNegative ? { min: 0 } : {}),
      ...valueAxisLook(),
    },
    yAxis: [
      { ...rowAxis, data: bars.map((b) => b.label), axisLabel: { width: LABEL_WIDTH - 12, overflow: "truncate", color: TEXT } },
      {
        ...rowAxis,
        position: "right",
        axisLine: { show: false },
        data: bars.map((b) => `${figure(b.value)}${unit}${b.note ? `  ${b.note}` : ""}`),
        axisLabel: { width: NOTE_WIDTH - 12, overflow: "truncate", color: TEXT },
      },
    ],
    tooltip: {
      ...elementTooltip("axis", (first) => {
        const bar = first ? bars[first.dataIndex] : undefined;
        return h("div", {}, bar ? tooltipText(bar, unit) : "");
      }),
      axisPointer: { type: "shadow" },
    },
    series: [
      {
        type: "bar",
        name: "value",
        barWidth: 18,
        data: bars.map((b) => ({ value: b.value, itemStyle: { color: (b.tone && TONES[b.tone]) || BAR } })),
      },
      errorBarSeries(intervals, { orientation: "horizontal", color: TEXT }),
    ],
  };
}

function hasInterval(bar: Bar): bar is Bar & { low: number; high: number } {
  return bar.low !== undefined && bar.high !== undefined && Number.isFinite(bar.low) && Number.isFinite(bar.high);
}

/** The interval as computed, even where it is drawn from zero. */
function tooltipText(bar: Bar, unit: string): string {
  const interval = hasInterval(bar) ? ` [${figure(bar.low)}, ${figure(bar.high)}]` : "";
  return `${bar.label}: ${figure(bar.value)}${unit}${interval}${bar.note ? `, ${bar.note}` : ""}`;
}
