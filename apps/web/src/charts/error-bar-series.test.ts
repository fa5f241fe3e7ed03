import { describe, expect, it } from "vitest";
import { errorBarSeries } from "./error-bar-series.js";

type Line = { type: "line"; shape: { x1: number; y1: number; x2: number; y2: number } };

/** The series' whisker for one data item, drawn on a grid where a value is 10 px and a category 100 px. */
function whisker(series: ReturnType<typeof errorBarSeries>, index: number, horizontal = true): Line[] {
  const item = (series.data as number[][])[index]!;
  const api = {
    value: (dim: number) => item[dim]!,
    // Values along x (horizontal bars) or y, categories across, both scaled.
    coord: ([a, b]: number[]) => (horizontal ? [a! * 10, b! * 100] : [a! * 100, b! * 10]),
    size: () => (horizontal ? [10, 100] : [100, 10]),
  };
  const render = series.renderItem as unknown as (params: unknown, a: typeof api) => { children: Line[] };
  return render({}, api).children;
}

describe("errorBarSeries", () => {
  it("draws each interval from its low to its high end on its category's row, with a cap at each end", () => {
    const series = errorBarSeries(
      [
        { category: 0, low: 2, high: 5 },
        { category: 2, low: 7, high: 9 },
      ],
      { orientation: "horizontal", color: "#000" },
    );
    expect(series.data).toEqual([
      [0, 2, 5],
      [2, 7, 9],
    ]);
    expect(series.encode).toEqual({ y: 0, x: [1, 2] });
    const [line, lowCap, highCap] = whisker(series, 1);
    expect(line!.shape).toEqual({ x1: 70, y1: 200, x2: 90, y2: 200 });
    // Caps 40% of the band (100 px) long, across the row.
    expect(lowCap!.shape).toEqual({ x1: 70, y1: 180, x2: 70, y2: 220 });
    expect(highCap!.shape).toEqual({ x1: 90, y1: 180, x2: 90, y2: 220 });
  });

  it("orders reversed ends, and draws vertical whiskers for vertical bars", () => {
    const series = errorBarSeries([{ category: 1, low: 5, high: 3 }], { orientation: "vertical", color: "#000" });
    expect(series.data).toEqual([[1, 3, 5]]);
    expect(series.encode).toEqual({ x: 0, y: [1, 2] });
    const [line, lowCap] = whisker(series, 0, false);
    expect(line!.shape).toEqual({ x1: 100, y1: 30, x2: 100, y2: 50 });
    expect(lowCap!.shape).toEqual({ x1: 80, y1: 30, x2: 120, y2: 30 });
  });

  it("draws caps of a fixed length at values of a value axis (a scatter's points), which has no bands", () => {
    const series = errorBarSeries([{ category: 0.5, low: 1, high: 3 }], { orientation: "vertical", color: "#000", capPixels: 8 });
    expect(series.data).toEqual([[0.5, 1, 3]]);
    const [line, lowCap, highCap] = whisker(series, 0, false);
    expect(line!.shape).toEqual({ x1: 50, y1: 10, x2: 50, y2: 30 });
    expect(lowCap!.shape).toEqual({ x1: 46, y1: 10, x2: 54, y2: 10 });
    expect(highCap!.shape).toEqual({ x1: 46, y1: 30, x2: 54, y2: 30 });
  });
});
