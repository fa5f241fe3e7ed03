import type { CustomSeriesOption } from "echarts/charts";

/** One interval on a category row (or column): its ends as drawn. */
export interface ErrorBarDatum {
  /** The category's index on the category axis (or, with `capPixels`, a value on a value axis). */
  category: number;
  low: number;
  high: number;
}

export interface ErrorBarOptions {
  /** Horizontal bars (categories on the y axis, values on x) or vertical ones. */
  orientation: "horizontal" | "vertical";
  /** The whisker's colour. */
  color: string;
  /** The caps' length, as a share of the category band. */
  capShare?: number;
  /** The caps' length in pixels instead: for whiskers at values of a value axis, which has no bands (a scatter's points). */
  capPixels?: number;
}

/**
 * The intervals as a `custom` series drawing a whisker each: a line from low to high and a cap at
 * each end. ECharts has no error bar of its own; this is its error-bar example's way. The series'
 * encode puts both ends on the value axis, so the axis extent holds every interval end.
 */
export function errorBarSeries(data: readonly ErrorBarDatum[], options: ErrorBarOptions): CustomSeriesOption {
  const horizontal = options.orientation === "horizontal";
  const capShare = options.capShare ?? 0.4;
  return {
    type: "custom",
    name: "interval",
    data: data.map((d) => [d.category, Math.min(d.low, d.high), Math.max(d.low, d.high)]),
    encode: horizontal ? { y: 0, x: [1, 2] } : { x: 0, y: [1, 2] },
    z: 3,
    renderItem: (_params, api) => {
      const category = api.value(0);
      const at = (value: number) => api.coord(horizontal ? [value, category] : [category, value]);
      const low = at(Number(api.value(1)));
      const high = at(Number(api.value(2)));
      const band = options.capPixels === undefined ? (api.size?.(horizontal ? [0, 1] : [1, 0]) as number[]) : undefined;
      const half = band ? (horizontal ? band[1]! : band[0]!) * (capShare / 2) : (options.capPixels ?? 0) / 2;
      const style = { stroke: options.color, lineWidth: 1.5 };
      const cap = ([x, y]: number[]) => (horizontal ? { x1: x!, y1: y! - half, x2: x!, y2: y! + half } : { x1: x! - half, y1: y!, x2: x! + half, y2: y! });
      return {
        type: "group",
        children: [
          { type: "line", shape: { x1: low[0]!, y1: low[1]!, x2: high[0]!, y2: high[1]! }, style },
          { type: "line", shape: cap(low), style },
          { type: "line", shape: cap(high), style },
        ],
      };
    },
  };
}
