import type { Series } from "@benchwright/sdk";
import { api } from "../api.js";
import { chartElement } from "../charts/chart-element.js";
import { percent, seriesTrendOption } from "../charts/series-trend-option.js";
import { h } from "../dom.js";
import { figure, tagsText } from "../format.js";
import { onChanges } from "../live.js";
import { problemBox } from "../problem.js";
import { changesTable, seriesName } from "./changes-table.js";

/**
 * One series: what it follows, its baseline, its trend (means, intervals, changes, baseline) and
 * its changes; drawn again when a change is found in it.
 */
export async function seriesView(root: HTMLElement, id: string, signal: AbortSignal): Promise<void> {
  await render(root, id, signal);
  onChanges({ types: ["change.detected"] }, signal, () => {
    render(root, id, signal).catch((error: unknown) => {
      if (!signal.aborted) root.append(problemBox(error));
    });
  });
}

async function render(root: HTMLElement, id: string, signal: AbortSignal): Promise<void> {
  const bw = api();
  const [series, points, changes] = await Promise.all([
    bw.getSeries(id, { signal }),
    bw.listSeriesPoints(id, { signal }),
    bw.listSeriesChanges(id, { signal }),
  ]);
  root.replaceChildren(
    h("h1", {}, seriesName(series)),
    summary(series),
    h(
      "div",
      { class: "panel" },
      h("h2", {}, "Trend"),
      chartElement(seriesTrendOption(series, points, changes), { kind: "trend", title: `${series.metric.name} over time`, height: 360 }),
    ),
    h("div", { class: "panel" }, h("h2", {}, "Changes"), changesTable("series-changes", changes, false, signal)),
  );
}

function summary(s: Series): HTMLElement {
  const vs = s.latest_vs_baseline;
  const params = tagsText(s.benchmark.params);
  const items: Array<[string, string]> = [
    ["Params", params || "(defaults)"],
    ["Points", s.points ? `${s.points}, ${s.first_at} to ${s.last_at}` : "0"],
    ["Latest", s.latest ? `#${s.latest.seq}: ${figure(s.latest.mean)} ${s.metric.unit}` : "—"],
    [
      "Baseline",
      s.baseline
        ? `#${s.baseline.from}–#${s.baseline.to}: ${figure(s.baseline.mean)} ${s.metric.unit}`
        : "none (benchwright series <id> --baseline <from>-<to>)",
    ],
    ["Latest vs baseline", vs ? `${percent(vs.size)} ${vs.direction ?? "(no clear difference)"}` : "—"],
    ["Open changes", String(s.open_changes)],
  ];
  return h(
    "dl",
    { class: "facts", "data-testid": "series-summary" },
    items.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
  );
}
