import type { PlanReport } from "@benchwright/contract";
import { BarChart, CustomChart, ScatterChart } from "echarts/charts";
import { GridComponent, LegendComponent, MarkLineComponent, TitleComponent } from "echarts/components";
import { type EChartsCoreOption, init, use } from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { performanceRatio } from "./report-cell.js";
import { cellTitle } from "./report-labels.js";

// Only the parts the report draws: the whole of ECharts would load every chart type with the engine.
use([BarChart, CustomChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, SVGRenderer]);

const WIDTH = 880;

/** Distinct colours that hold dark text and white around them; a target takes one by its place in the plan. */
const PALETTE = ["#3b6fd8", "#e08a1e", "#2f9e62", "#8a5cc8", "#1aa0b8", "#c2458a", "#7a8a1a", "#6b7384"];

/**
 * Each target's colour, by its place in the plan (the order of a cell's states), not by its
 * rank: a target keeps its colour from one report to the next, whoever wins.
 */
export function targetColours(report: Pick<PlanReport, "cells" | "targets">): Map<string, string> {
  const inPlan = [...new Set([...report.cells.flatMap((c) => c.states.map((s) => s.target)), ...report.targets.map((t) => t.target)])];
  return new Map(inPlan.map((label, i) => [label, PALETTE[i % PALETTE.length]]));
}

/**
 * Draws a chart as SVG text with ECharts' server-side renderer: no DOM, no canvas, no script in
 * the result. ECharts escapes the texts it writes. The namespace attributes go: an `<svg>` inside
 * HTML needs none, and the page then holds no URL at all.
 */
function svgChart(option: EChartsCoreOption, height: number): string {
  const chart = init(null, null, { renderer: "svg", ssr: true, width: WIDTH, height });
  try {
    chart.setOption({ animation: false, ...option });
    return chart.renderToSVGString().replace(/\s+xmlns(:xlink)?="[^"]*"/g, "");
  } finally {
    chart.dispose();
  }
}

/**
 * The targets' geometric means as a forest plot, best on top: a dot each with its interval, on a
 * logarithmic axis (ratios multiply: ½ and 2 stand as far from 1), and a line at 1, the baseline.
 */
export function rankingChart(report: PlanReport): string {
  const ranked = report.targets.filter((t) => t.geomean !== null).reverse();
  const colours = targetColours(report);
  const bounds = ranked.flatMap((t) => [t.geomean!, t.geomean_ci_low ?? t.geomean!, t.geomean_ci_high ?? t.geomean!, 1]);
  return svgChart(
    {
      title: { text: "Geometric mean of the ratios to the baseline (above 1 is better)", textStyle: { fontSize: 14 } },
      // Room above the plot for the baseline's label, off the axis' own labels below.
      grid: { left: 180, right: 40, top: 60, bottom: 30 },
      xAxis: {
        type: "log",
        min: Math.min(...bounds) / 1.2,
        max: Math.max(...bounds) * 1.2,
        axisLabel: { formatter: (v: number) => String(Number(v.toPrecision(3))) },
      },
      yAxis: { type: "category", data: ranked.map((t) => t.target) },
      series: [
        errorBars(ranked.flatMap((t, i) => (t.geomean_ci_low !== null ? [[i, t.geomean_ci_low, t.geomean_ci_high!]] : []))),
        {
          type: "scatter",
          symbolSize: 12,
          z: 4,
          data: ranked.map((t, i) => ({ value: [t.geomean, i], itemStyle: { color: colours.get(t.target) } })),
          label: { show: true, position: "top", formatter: ({ value }: { value: number[] }) => String(Number(value[0].toPrecision(4))) },
          markLine: {
            symbol: "none",
            silent: true,
            data: [{ xAxis: 1 }],
            label: { formatter: "baseline (1)", position: "end" },
            lineStyle: { color: "#444", type: "dashed" },
          },
        },
      ],
    },
    Math.max(150, 80 + 45 * ranked.length),
  );
}

/** Each cell's performance ratio of every target (the main metric, above 1 better), grouped by cell, from 0 with a line at 1. */
export function cellsChart(report: PlanReport): string {
  const colours = targetColours(report);
  // The legend and the bars in the plan's order, as the colours.
  const targets = [...colours.keys()];
  return svgChart(
    {
      title: { text: "Ratio to the baseline per cell, on its main metric (above 1 is better)", textStyle: { fontSize: 14 } },
      legend: { bottom: 0, data: targets },
      grid: { left: 60, right: 30, top: 40, bottom: 140 },
      xAxis: { type: "category", data: report.cells.map(cellTitle), axisLabel: { rotate: 30, interval: 0, width: 160, overflow: "truncate" } },
      yAxis: { type: "value", min: 0 },
      series: targets.map((target, i) => ({
        type: "bar",
        name: target,
        itemStyle: { color: colours.get(target) },
        data: report.cells.map((c) => performanceRatio(c, target)),
        ...(i === 0
          ? { markLine: { symbol: "none", silent: true, data: [{ yAxis: 1 }], label: { formatter: "1" }, lineStyle: { color: "#444", type: "dashed" } } }
          : {}),
      })),
    },
    400,
  );
}

/** A custom series drawing [category, low, high] as a horizontal interval with end ticks. */
function errorBars(data: number[][]) {
  return {
    type: "custom",
    data,
    encode: { y: 0, x: [1, 2] },
    z: 3,
    renderItem: (_params: unknown, api: { value(i: number): number; coord(p: number[]): number[]; size(p: number[]): number[] }) => {
      const [x1, y] = api.coord([api.value(1), api.value(0)]);
      const [x2] = api.coord([api.value(2), api.value(0)]);
      const tick = api.size([0, 1])[1] * 0.25;
      const style = { stroke: "#222", lineWidth: 1.5 };
      return {
        type: "group",
        children: [
          { type: "line", shape: { x1, y1: y, x2, y2: y }, style },
          { type: "line", shape: { x1, y1: y - tick, x2: x1, y2: y + tick }, style },
          { type: "line", shape: { x1: x2, y1: y - tick, x2, y2: y + tick }, style },
        ],
      };
    },
  };
}
