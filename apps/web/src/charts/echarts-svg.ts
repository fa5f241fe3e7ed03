import { BarChart, CustomChart, LineChart, ScatterChart } from "echarts/charts";
import { GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent } from "echarts/components";
import { type EChartsCoreOption, type EChartsType, init, use } from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

// Only what the dashboard's charts draw, so that the bundle carries no other chart type; SVG, as
// the plan report's server-side rendering, so a chart is crisp at any zoom and its shapes are in the DOM.
use([BarChart, CustomChart, LineChart, ScatterChart, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent, SVGRenderer]);

/** The option drawn into the element, which must have a size. */
export function draw(el: HTMLElement, option: EChartsCoreOption): EChartsType {
  const chart = init(el, undefined, { renderer: "svg" });
  chart.setOption(option);
  return chart;
}
