import type { Change } from "@benchwright/sdk";
import { api } from "../api.js";
import { factsText, percent } from "../charts/series-trend-option.js";
import { h } from "../dom.js";
import { figure, shortId, tagsText } from "../format.js";
import { problemBox } from "../problem.js";
import { href } from "../router.js";
import { stateBadge } from "./badges.js";
import { listTable } from "./list-table.js";

/** `sysbench/cpu_10000 (threads=2)`: two series of one workload differ by their params. */
export function benchmarkName(b: Change["series"]["benchmark"]): string {
  const params = tagsText(b.params);
  return `${b.tool}/${b.workload}${params ? ` (${params})` : ""}`;
}

/** `sysbench/cpu_10000 (threads=2) events_per_second {threads=2} on local/default`: what a change's series follows. */
export function seriesName(s: Change["series"]): string {
  const tags = tagsText(s.metric.tags);
  return `${benchmarkName(s.benchmark)} ${s.metric.name}${tags ? ` {${tags}}` : ""} on ${s.target.provider}/${s.target.service_type}`;
}

function sizeText(c: Change): string {
  const interval = c.size_ci_low !== null && c.size_ci_high !== null ? ` [${percent(c.size_ci_low)}, ${percent(c.size_ci_high)}]` : "";
  return `${percent(c.size)}${interval}`;
}

/**
 * Changes as a table: where each starts, its size with its interval, the means before and after,
 * the facts that changed, and an Acknowledge button while it is open (the row then shows it
 * acknowledged). `withSeries` adds a column naming each one's series, linked to its page.
 */
export function changesTable(testId: string, changes: Change[], withSeries: boolean, signal: AbortSignal): HTMLElement {
  const status = h("div", { class: "status" });
  const row = (c: Change): HTMLElement => {
    const tr = h(
      "tr",
      { "data-testid": "change-row", "data-id": c.id, "data-direction": c.direction, "data-state": c.state },
      withSeries ? h("td", {}, h("a", { href: href(["series", c.series_id]), "data-testid": "series-link" }, seriesName(c.series))) : null,
      h("td", { title: c.execution_id }, `#${c.seq}`, h("br"), h("span", { class: "muted" }, c.at)),
      h("td", {}, h("span", { class: `verdict verdict-${c.direction === "regression" ? "worse" : "better"}` }, c.direction)),
      h("td", { "data-testid": "change-size" }, sizeText(c)),
      h("td", {}, `${figure(c.before.mean)} → ${figure(c.after.mean)} ${c.series.metric.unit}`),
      h("td", { "data-testid": "facts-changed" }, factsText(c).length ? factsText(c).map((f) => h("div", {}, f)) : h("span", { class: "muted" }, "none")),
      h("td", {}, stateBadge(c.state, "change-state")),
      h("td", {}, c.state === "open" ? acknowledgeButton(c) : null),
    );
    return tr;
  };
  const acknowledgeButton = (c: Change): HTMLElement => {
    const button = h("button", { type: "button", "data-testid": "acknowledge", title: shortId(c.id) }, "Acknowledge");
    button.addEventListener("click", async () => {
      button.setAttribute("disabled", "");
      try {
        const acknowledged = await api().acknowledgeChange(c.id, { signal });
        // A live event may have drawn the page again while the request was out: the row to
        // replace is then the new table's, not this (detached) one's.
        const table = body.isConnected ? body : document;
        table.querySelector(`tr[data-testid="change-row"][data-id="${c.id}"]`)?.replaceWith(row(acknowledged));
        status.replaceChildren();
      } catch (error) {
        button.removeAttribute("disabled");
        if (!signal.aborted) status.replaceChildren(problemBox(error));
      }
    });
    return button;
  };
  const body = h("tbody", {}, changes.length ? changes.map(row) : h("tr", {}, h("td", { colspan: withSeries ? 8 : 7, class: "empty" }, "No change")));
  return h(
    "div",
    {},
    listTable(testId, [...(withSeries ? ["Series"] : []), "Point", "Direction", "Size [95%]", "Before → after", "Facts changed", "State", ""], body),
    status,
  );
}
