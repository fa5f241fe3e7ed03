import type { BarSeriesOption, CustomSeriesOption } from "echarts/charts";
import { describe, expect, it } from "vitest";
import { type Bar, metricBarHeight, metricBarOption } from "./metric-bar-option.js";

const bars: Bar[] = [
  { label: "4d8f2a61 aws", value: 2400.2, low: 2387.4, high: 2413, note: "baseline", tone: "verdict-baseline" },
  { label: "1c5d8e2f lab", value: 1201.5, low: 1191.1, high: 1211.9, note: "×0.5006 worse", tone: "verdict-worse" },
  { label: "once", value: 5 },
];

const seriesOf = (option: ReturnType<typeof metricBarOption>) => {
  const [bar, interval] = option.series as [BarSeriesOption, CustomSeriesOption];
  return { bar, interval };
};
const valueAxis = (option: ReturnType<typeof metricBarOption>) => option.xAxis as { type: string; min?: number };
const rowAxes = (option: ReturnType<typeof metricBarOption>) => option.yAxis as Array<{ data: string[]; inverse: boolean }>;

describe("metricBarOption", () => {
  it("gives one bar per figure, top down in the order given, at its value and in its verdict's colour", () => {
    const option = metricBarOption(bars, { unit: "events/s" });
    const { bar } = seriesOf(option);
    expect(bar.data).toEqual([
      { value: 2400.2, itemStyle: { color: "#8f9bb3" } },
      { value: 1201.5, itemStyle: { color: "#d0543f" } },
      { value: 5, itemStyle: { color: "#6f8fd8" } },
    ]);
    const [labels, notes] = rowAxes(option);
    expect(labels!.data).toEqual(["4d8f2a61 aws", "1c5d8e2f lab", "once"]);
    expect(labels!.inverse).toBe(true);
    expect(notes!.data).toEqual(["2400 events/s  baseline", "1202 events/s  ×0.5006 worse", "5 events/s"]);
  });

  it("draws each interval, as given, as the error bar of its own bar's row, and none for a figure measured once", () => {
    const { interval } = seriesOf(metricBarOption(bars));
    expect(interval.type).toBe("custom");
    expect(interval.data).toEqual([
      [0, 2387.4, 2413],
      [1, 1191.1, 1211.9],
    ]);
  });

  it("keeps the axis and the error bars of a figure that cannot be negative at zero or above", () => {
    const wide: Bar[] = [{ label: "a", value: 0.5, low: -4.58, high: 5.58 }];
    const free = metricBarOption(wide);
    expect(valueAxis(free).min).toBeUndefined();
    expect(seriesOf(free).interval.data).toEqual([[0, -4.58, 5.58]]);
    const clamped = metricBarOption(wide, { nonNegative: true });
    expect(valueAxis(clamped)).toMatchObject({ type: "value", min: 0 });
    expect(seriesOf(clamped).interval.data).toEqual([[0, 0, 5.58]]);
  });

  it("gives each bar a row of its own height, so that a chart of three bars stays short", () => {
    expect(metricBarHeight(3) - metricBarHeight(2)).toBe(30);
    expect(metricBarHeight(1)).toBeGreaterThan(30);
  });
});
