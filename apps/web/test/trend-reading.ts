import type { Locator } from "playwright-core";

/** What a series' trend chart (charts/series-trend-option.ts) shows, read back from the SVG ECharts drew. */
export interface DrawnTrend {
  /** Every text drawn: axis labels, the change points' labels (one text per line), the baseline's. */
  texts: string[];
  /** The dashed lines of the change points. */
  changeLines: number;
  /** The mean line's point symbols. */
  meanPoints: number;
}

/** Waits for the chart to be drawn, then reads it. */
export async function readTrendChart(chart: Locator, timeout = 30_000): Promise<DrawnTrend> {
  for (const deadline = Date.now() + timeout; ; await new Promise((r) => setTimeout(r, 100))) {
    const read = await chart.evaluate((el): DrawnTrend | null => {
      const svg = el.querySelector("svg");
      if (!svg) return null;
      return {
        texts: [...svg.querySelectorAll("text")].map((t) => t.textContent ?? ""),
        changeLines: [...svg.querySelectorAll("path[stroke-dasharray]")].length,
        // A symbol is a small closed path with a fill (ECharts' emptyCircle: white fill, blue stroke).
        meanPoints: [...svg.querySelectorAll('path[fill="#fff"]')].length,
      };
    });
    if (read) return read;
    if (Date.now() > deadline) throw new Error("no chart drawn: no svg in the chart's element");
  }
}
