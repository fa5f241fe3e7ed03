import type { Locator } from "playwright-core";

/** One drawn bar, read back as values of its chart's axis. */
interface DrawnBar {
  label: string;
  value: number;
  /** The whisker's ends, when the bar has one. */
  low?: number;
  high?: number;
}

export interface DrawnBarChart {
  bars: DrawnBar[];
  /** The value axis' labels, left to right. */
  ticks: string[];
  /** What one pixel is worth on the value axis: how close a value read back can be. */
  resolution: number;
}

/**
 * A horizontal bar chart as ECharts' SVG renderer drew it (charts/metric-bar-option.ts), read back
 * from its shapes: the value axis is found from its tick labels' positions, each bar (a filled
 * path, no stroke) and each whisker (the stroked line along a row) turned back into values. So a
 * test checks what the page shows, not the option it was given.
 */
export async function readBarChart(chart: Locator, timeout = 30_000): Promise<DrawnBarChart> {
  // A view re-renders on its events, its charts with it: read once the chart of the moment is drawn.
  for (const deadline = Date.now() + timeout; ; await new Promise((r) => setTimeout(r, 100))) {
    const read = await drawnBarChart(chart);
    if (read) return read;
    if (Date.now() > deadline) throw new Error("no chart drawn: no svg in the chart's element");
  }
}

function drawnBarChart(chart: Locator): Promise<DrawnBarChart | null> {
  return chart.evaluate((el) => {
    const svg = el.querySelector("svg");
    if (!svg) return null;
    const at = (node: Element) => {
      const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(node.getAttribute("transform") ?? "");
      return m ? { x: Number(m[1]), y: Number(m[2]) } : { x: Number.NaN, y: Number.NaN };
    };
    const texts = (anchor: string) => [...svg.querySelectorAll(`text[text-anchor="${anchor}"]`)].map((t) => ({ text: t.textContent ?? "", ...at(t) }));
    const ticks = texts("middle").sort((a, b) => a.x - b.x);
    const first = ticks[0];
    const last = ticks[ticks.length - 1];
    if (!first || !last || first === last) throw new Error("no value axis: fewer than two tick labels");
    const perPixel = (Number(last.text) - Number(first.text)) / (last.x - first.x);
    const value = (x: number) => Number(first.text) + (x - first.x) * perPixel;
    const labels = texts("end");
    const numbers = (d: string) => (d.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);
    const bars = [...svg.querySelectorAll("path:not([stroke])")]
      .map((p) => {
        // A bar is the rectangle "M x y l w 0 l 0 h l -w 0 Z".
        const [x, y, w, , , h] = numbers(p.getAttribute("d") ?? "");
        return { x: x!, y: y!, w: w!, h: h! };
      })
      .sort((a, b) => a.y - b.y);
    const whiskers = [...svg.querySelectorAll("path[stroke]")]
      .map((p) => numbers(p.getAttribute("d") ?? ""))
      // An interval of no width (equal figures) is drawn as a bare "M x y".
      .map((d) => (d.length === 2 ? [d[0], d[1], d[0], d[1]] : d))
      // The line along the row (its caps are across it); the axis line and grid lines run across rows.
      .filter(([x1, y1, x2, y2]) => y1 === y2 && x1 !== undefined && x2 !== undefined)
      .map(([x1, y, x2]) => ({ y: y!, low: value(Math.min(x1!, x2!)), high: value(Math.max(x1!, x2!)) }));
    return {
      ticks: ticks.map((t) => t.text),
      resolution: Math.abs(perPixel),
      bars: bars.map((b) => {
        const ends = [value(b.x), value(b.x + b.w)];
        const whisker = whiskers.find((w) => w.y >= b.y && w.y <= b.y + b.h);
        return {
          label: labels.find((l) => l.y >= b.y && l.y <= b.y + b.h)?.text ?? "",
          // The end away from zero.
          value: Math.abs(ends[0]!) > Math.abs(ends[1]!) ? ends[0]! : ends[1]!,
          ...(whisker ? { low: whisker.low, high: whisker.high } : {}),
        };
      }),
    };
  });
}
