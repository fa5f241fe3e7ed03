import type { TooltipComponentOption } from "echarts/components";
import { figure } from "../format.js";

/** The charts' text colour, the page's (style.css). */
export const TEXT = "#1d2330";

/** The page's font (style.css), which ECharts does not inherit. */
export function pageTextStyle() {
  return { color: TEXT, fontSize: 12, fontFamily: "system-ui, sans-serif" };
}

/** The grid's lines across a value axis. */
export function gridLines() {
  return { lineStyle: { color: "#eceef2" } };
}

/** A value axis's labels, each value written by `format` (a figure by default), and its grid lines. */
export function valueAxisLook(format: (value: number) => string = figure) {
  return { axisLabel: { formatter: (v: number) => format(v), color: TEXT }, splitLine: gridLines() };
}

type TooltipFormatter = Extract<NonNullable<TooltipComponentOption["formatter"]>, (...args: never[]) => unknown>;
type TooltipParams = Parameters<TooltipFormatter>[0];
/** What a tooltip is about: the item under the pointer, or the first of the axis' items. */
export type TooltipItem = Exclude<TooltipParams, readonly unknown[]>;

/**
 * A tooltip whose content is an element, not HTML: labels are users' text (a plan's, a
 * metric's tags, the machines' facts), which the page must not read as markup.
 */
export function elementTooltip(trigger: "item" | "axis", content: (item: TooltipItem | undefined) => HTMLElement) {
  return { trigger, confine: true, formatter: (params: TooltipParams) => content(Array.isArray(params) ? params[0] : params) };
}
