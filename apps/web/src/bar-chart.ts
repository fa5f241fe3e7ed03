import { s } from "./dom.js";
import { figure } from "./format.js";

/** One bar: its value and, when known, the interval drawn as its error bar. */
export interface Bar {
  /** What the bar is of (an execution id, a metric's tags): written to `data-key`. */
  key: string;
  label: string;
  value: number;
  low?: number;
  high?: number;
  /** Text after the value (a ratio, a verdict). */
  note?: string;
  /** A CSS class for the bar, such as the verdict. */
  tone?: string;
}

interface BarGeometry {
  bar: Bar;
  /** Row top. */
  y: number;
  /** The bar spans x0..x1 (x0 <= x1 whatever the sign of the value). */
  x0: number;
  x1: number;
  /** The error bar's ends, when the bar has an interval. */
  errorX0?: number;
  errorX1?: number;
}

export interface Layout {
  width: number;
  height: number;
  plotLeft: number;
  plotRight: number;
  rowHeight: number;
  domain: [number, number];
  ticks: number[];
  bars: BarGeometry[];
  x(value: number): number;
}

const LABEL_WIDTH = 190;
const NOTE_WIDTH = 240;
const ROW = 30;
const AXIS = 24;

export interface LayoutOptions {
  /**
   * The figure cannot be negative (a time, a rate): an interval that reaches below zero (a
   * t-interval of few, spread values) is drawn from zero, and the axis starts there.
   */
  nonNegative?: boolean;
}

/**
 * Where everything goes, as numbers only (tested without a DOM): horizontal bars from zero,
 * one row each, on a scale that holds every value and every interval end.
 */
export function layoutBars(input: readonly Bar[], width = 800, options: LayoutOptions = {}): Layout {
  const bars = options.nonNegative ? input.map(clampedAtZero) : input;
  const ends = bars.flatMap((b) => [b.value, b.low ?? b.value, b.high ?? b.value]).filter(Number.isFinite);
  const lo = Math.min(0, ...ends);
  const hi = Math.max(0, ...ends);
  const ticks = niceTicks(lo, hi === lo ? lo + 1 : hi);
  const domain: [number, number] = [ticks[0]!, ticks[ticks.length - 1]!];
  const plotLeft = LABEL_WIDTH;
  const plotRight = Math.max(plotLeft + 100, width - NOTE_WIDTH);
  const x = (v: number) => plotLeft + ((v - domain[0]) / (domain[1] - domain[0])) * (plotRight - plotLeft);
  const zero = x(0);
  return {
    width,
    height: bars.length * ROW + AXIS + 8,
    plotLeft,
    plotRight,
    rowHeight: ROW,
    domain,
    ticks,
    x,
    bars: bars.map((bar, i) => {
      const at = x(bar.value);
      const interval = bar.low !== undefined && bar.high !== undefined && Number.isFinite(bar.low) && Number.isFinite(bar.high);
      return {
        // As given: the error bar's data and tooltip say the interval as computed, even where it is drawn from zero.
        bar: input[i]!,
        y: 4 + i * ROW,
        x0: Math.min(zero, at),
        x1: Math.max(zero, at),
        ...(interval ? { errorX0: x(Math.min(bar.low!, bar.high!)), errorX1: x(Math.max(bar.low!, bar.high!)) } : {}),
      };
    }),
  };
}

function clampedAtZero(bar: Bar): Bar {
  return {
    ...bar,
    ...(bar.low !== undefined ? { low: Math.max(0, bar.low) } : {}),
    ...(bar.high !== undefined ? { high: Math.max(0, bar.high) } : {}),
  };
}

/** About five round ticks (1, 2 or 5 times a power of ten) covering lo..hi. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((st) => st >= raw) ?? 10 * power;
  const first = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let t = first; t < hi + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  if (ticks[ticks.length - 1]! < hi) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/**
 * The chart as inline SVG. Each bar is a `g.bar` with `data-key`, holding a `rect.bar-rect`
 * (`data-value`) and, when it has an interval, a `g.error-bar` (`data-low`, `data-high`): a line
 * across the interval and a cap at each end.
 */
export function barChart(bars: readonly Bar[], options: { title: string; kind: string; unit?: string } & LayoutOptions): SVGSVGElement {
  const layout = layoutBars(bars, undefined, options);
  const { x, plotLeft, plotRight, rowHeight, height, width } = layout;
  const axisY = height - AXIS;
  const barHeight = rowHeight - 12;
  const unit = options.unit ? ` ${options.unit}` : "";
  return s(
    "svg",
    {
      class: "chart",
      "data-chart": options.kind,
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: "img",
      "aria-label": options.title,
    },
    s("title", {}, options.title),
    layout.ticks.map((t) =>
      s(
        "g",
        { class: "tick" },
        s("line", { x1: x(t), x2: x(t), y1: 0, y2: axisY, class: "grid" }),
        s("text", { x: x(t), y: axisY + 16, "text-anchor": "middle" }, figure(t)),
      ),
    ),
    s("line", { x1: x(0), x2: x(0), y1: 0, y2: axisY, class: "zero" }),
    layout.bars.map(({ bar, y, x0, x1, errorX0, errorX1 }) => {
      const mid = y + rowHeight / 2 - 2;
      return s(
        "g",
        { class: `bar ${bar.tone ?? ""}`.trim(), "data-key": bar.key },
        s(
          "title",
          {},
          `${bar.label}: ${figure(bar.value)}${unit}${bar.low !== undefined && bar.high !== undefined ? ` [${figure(bar.low)}, ${figure(bar.high)}]` : ""}`,
        ),
        s("text", { x: plotLeft - 8, y: mid + 4, "text-anchor": "end", class: "label" }, bar.label),
        s("rect", {
          class: "bar-rect",
          x: x0,
          y: mid - barHeight / 2,
          width: Math.max(1, x1 - x0),
          height: barHeight,
          "data-value": bar.value,
        }),
        errorX0 !== undefined && errorX1 !== undefined
          ? s(
              "g",
              { class: "error-bar", "data-low": bar.low, "data-high": bar.high },
              s("line", { x1: errorX0, x2: errorX1, y1: mid, y2: mid }),
              s("line", { x1: errorX0, x2: errorX0, y1: mid - 6, y2: mid + 6 }),
              s("line", { x1: errorX1, x2: errorX1, y1: mid - 6, y2: mid + 6 }),
            )
          : null,
        s("text", { x: plotRight + 8, y: mid + 4, class: "value" }, `${figure(bar.value)}${unit}${bar.note ? `  ${bar.note}` : ""}`),
      );
    }),
  );
}
