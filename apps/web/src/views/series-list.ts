import type { Series } from "@benchwright/sdk";
import { api } from "../api.js";
import { h } from "../dom.js";
import { figure, shortId, tagsText } from "../format.js";
import { href, type Route } from "../router.js";
import { benchmarkName } from "./changes-table.js";
import { listTable } from "./list-table.js";

/** The filters of the series list, as `#/series?tool=…` carries them and the API takes them. */
const FILTERS = [
  ["tool", "Tool"],
  ["workload", "Workload"],
  ["metric", "Metric"],
  ["provider", "Provider"],
  ["service_type", "Service type"],
] as const;

/** Every series (one metric of one benchmark on one target, over time), filtered by the route's query. */
export async function seriesListView(root: HTMLElement, route: Route, signal: AbortSignal): Promise<void> {
  const q = (name: string) => route.query.get(name) || undefined;
  const series = await api().listSeries({
    tool: q("tool"),
    workload: q("workload"),
    metric: q("metric"),
    provider: q("provider"),
    serviceType: q("service_type"),
    signal,
  });
  const inputs = FILTERS.map(([name, label]) => h("input", { name, "aria-label": label, placeholder: label, value: route.query.get(name) ?? "" }));
  const form = h(
    "form",
    {
      class: "row",
      "data-testid": "series-filters",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const query = Object.fromEntries(inputs.filter((i) => i.value.trim()).map((i) => [i.name, i.value.trim()]));
        location.hash = href(["series"], query);
      },
    },
    inputs,
    h("button", { type: "submit" }, "Filter"),
  );
  root.replaceChildren(
    h("h1", {}, "Series"),
    h("p", { class: "muted" }, "Each successful run adds a point to its metrics' series; each new point is checked for a change of level."),
    form,
    listTable(
      "series",
      ["Series", "Benchmark", "Metric", "Target", "Points", "Latest", "Open changes"],
      series.length ? series.map(row) : [h("tr", {}, h("td", { colspan: 7, class: "empty" }, "No series"))],
    ),
  );
}

function row(s: Series): HTMLElement {
  const tags = tagsText(s.metric.tags);
  return h(
    "tr",
    { "data-testid": "series-row", "data-id": s.id },
    h("td", {}, h("a", { href: href(["series", s.id]), title: s.id }, shortId(s.id))),
    h("td", {}, benchmarkName(s.benchmark)),
    h("td", {}, `${s.metric.name}${tags ? ` {${tags}}` : ""}`),
    h("td", {}, `${s.target.provider}/${s.target.service_type}`),
    h("td", {}, s.points),
    h("td", {}, s.latest ? `${figure(s.latest.mean)} ${s.metric.unit}` : "—"),
    h("td", { class: s.open_changes ? "verdict verdict-worse" : "" }, s.open_changes),
  );
}
