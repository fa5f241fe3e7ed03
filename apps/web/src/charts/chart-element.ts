import type { EChartsCoreOption, EChartsType } from "echarts/core";
import { h } from "../dom.js";

/** The charts drawn, to dispose of those whose element has left the page (a view re-renders on each event). */
const drawn = new Map<HTMLElement, EChartsType>();
/** ECharts once loaded: a view's re-render then draws its charts before the next paint, without a blank frame. */
let echarts: typeof import("./echarts-svg.js") | undefined;

/**
 * A `div.chart` that draws the option once it has a width, and follows its width after. A chart in
 * a folded section has none: it is drawn when the section opens (ECharts cannot draw at width 0).
 * ECharts is loaded with the first chart, as a chunk of its own: the pages without a chart, and
 * the first paint of those with one, do not wait for it.
 */
export function chartElement(option: EChartsCoreOption, attrs: { kind: string; title: string; height: number }): HTMLElement {
  const el = h("div", {
    class: "chart",
    "data-chart": attrs.kind,
    role: "img",
    "aria-label": attrs.title,
    style: `height: ${attrs.height}px`,
  });
  let loading = false;
  const observer = new ResizeObserver(() => {
    if (!el.isConnected) {
      observer.disconnect();
      disposeDetached();
      return;
    }
    if (el.clientWidth === 0 || loading) return;
    const chart = drawn.get(el);
    if (chart) {
      chart.resize();
      return;
    }
    const draw = (loaded: typeof import("./echarts-svg.js")) => {
      echarts = loaded;
      disposeDetached();
      // Gone while ECharts loaded (the view moved on): nothing to draw.
      if (el.isConnected) drawn.set(el, loaded.draw(el, option));
    };
    if (echarts) return draw(echarts);
    loading = true;
    import("./echarts-svg.js").then(draw, () => {
      // The chunk did not load (the server went away, a new build replaced it): say so.
      el.textContent = "(the chart could not be loaded: reload the page)";
    });
  });
  observer.observe(el);
  return el;
}

function disposeDetached(): void {
  for (const [el, chart] of drawn) {
    if (el.isConnected) continue;
    chart.dispose();
    drawn.delete(el);
  }
}
