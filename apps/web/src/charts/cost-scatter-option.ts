import type { CustomSeriesOption, ScatterSeriesOption } from "echarts/charts";
import type { GridComponentOption, TooltipComponentOption } from "echarts/components";
import type { ComposeOption } from "echarts/core";
import type { PlanReport } from "@benchwright/sdk";
import { h } from "../dom.js";
import { amount, figure } from "../format.js";
import { elementTooltip, pageTextStyle, TEXT, valueAxisLook } from "./chart-style.js";
import { errorBarSeries } from "./error-bar-series.js";

/** The option of the performance-against-cost chart: what `costScatterOption` builds and `chartElement` draws. */
export type CostScatterOption = ComposeOption<ScatterSeriesOption | CustomSeriesOption | GridComponentOption | TooltipComponentOption>;

/**
 * A target with a cost and a geometric mean: one point of the chart. A target's cost is null (or, from an older server, absent) when no price is set for its
 * service type, or its executions' costs are in several currencies: it then has no point.
 */
export interface CostPoint {
  target: string;
  cost: number;
  currency: string;
  geomean: number;
  low: number | null;
  high: number | null;
  perCost: number | null;
}

/** The targets' points of performance against cost; none when no target has a cost. */
export function costPoints(report: PlanReport): CostPoint[] {
  return report.targets.flatMap((t): CostPoint[] =>
    t.cost && t.geomean !== null
      ? [
          {
            target: t.target,
            cost: t.cost.amount,
            currency: t.cost.currency,
            geomean: t.geomean,
            low: t.geomean_ci_low,
            high: t.geomean_ci_high,
            perCost: t.performance_per_cost ?? null,
          },
        ]
      : [],
  );
}

const POINT = "#2557c7";

/**
 * A scatter of the targets: x their cost, y their geometric mean (above 1 is better), each point
 * named by its target, its interval a vertical whisker. Better value lies up and to the left.
 * Pure: tested without a DOM.
 */
export function costScatterOption(points: readonly CostPoint[]): CostScatterOption {
  const currencies = [...new Set(points.map((p) => p.currency))];
  return {
    animation: false,
    textStyle: pageTextStyle(),
    grid: { left: 70, right: 40, top: 30, bottom: 50 },
    xAxis: {
      type: "value",
      name: `Cost (${currencies.join(", ")})`,
      nameLocation: "middle",
      nameGap: 30,
      scale: true,
      ...valueAxisLook(amount),
    },
    yAxis: {
      type: "value",
      name: "Geometric mean (above 1 is better)",
      nameLocation: "end",
      scale: true,
      ...valueAxisLook(),
    },
    tooltip: elementTooltip("item", (item) => {
      const p = points[item?.dataIndex ?? -1];
      return h("div", {}, p ? costPointText(p) : "");
    }),
    series: [
      {
        type: "scatter",
        name: "targets",
        symbolSize: 12,
        itemStyle: { color: POINT },
        z: 4,
        data: points.map((p) => [p.cost, p.geomean]),
        label: { show: true, position: "right", color: TEXT, formatter: (item: { dataIndex: number }) => points[item.dataIndex]?.target ?? "" },
      },
      // Each point's interval of its geometric mean, a vertical whisker at its cost; silent, so that
      // the tooltip is the point's (its data indices are not the points').
      {
        ...errorBarSeries(
          points.flatMap((p) => (p.low !== null && p.high !== null ? [{ category: p.cost, low: p.low, high: p.high }] : [])),
          { orientation: "vertical", color: TEXT, capPixels: 10 },
        ),
        silent: true,
      },
    ],
  };
}

/** A point as its tooltip tells it. */
export function costPointText(p: CostPoint): string {
  const interval = p.low !== null && p.high !== null ? ` [${figure(p.low)}, ${figure(p.high)}]` : "";
  const perCost = p.perCost !== null ? `, ${figure(p.perCost)} per ${p.currency}` : "";
  return `${p.target}: ×${figure(p.geomean)}${interval} for ${amount(p.cost)} ${p.currency}${perCost}`;
}
