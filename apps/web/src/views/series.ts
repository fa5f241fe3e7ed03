import type { Series } from "@benchwright/sdk";
import { api } from "../api.js";
import { chartElement } from "../charts/chart-element.js";
import { percent, seriesTrendOption } from "../charts/series-trend-option.js";
import { h } from "../dom.js";
import { figure, tagsText } from "../format.js";
import { onChanges } from "../live.js";
import { problemBox } from "../problem.js";
import { branchesOf, pointsOnBranch } from "../branch-filter.js";
import { href } from "../router.js";
import { changesTable, seriesName } from "./changes-table.js";

/**
 * One series: what it follows, its baseline, its trend (means, intervals, changes, baseline) and
 * its changes; drawn again when a change is found in it.
 */
export async function seriesView(root: HTMLElement, id: string, signal: AbortSignal, branch?: string): Promise<void> {
  await render(root, id, signal, branch);
  onChanges({ types: ["change.detected"] }, signal, () => {
    render(root, id, signal, branch).catch((error: unknown) => {
      if (!signal.aborted) root.append(problemBox(error));
    });
  });
}

async function render(root: HTMLElement, id: string, signal: AbortSignal, branch: string | undefined): Promise<void> {
  const bw = api();
  const [series, allPoints, changes] = await Promise.all([
    bw.getSeries(id, { signal }),
    bw.listSeriesPoints(id, { signal }),
    bw.listSeriesChanges(id, { signal }),
  ]);
  // The trend of one branch (`#/series/<id>?branch=main`), when its points name branches.
  const points = pointsOnBranch(allPoints, branch);
  root.replaceChildren(
    h("h1", {}, seriesName(series)),
    summary(series),
    h(
      "div",
      { class: "panel" },
      h("h2", {}, "Trend"),
      branchSelect(id, branchesOf(allPoints), branch),
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
    ...(vs?.claim ? [["Verdict", `${vs.claim.verdict}: ${vs.claim.sentence}`] as [string, string]] : []),
    ["Open changes", String(s.open_changes)],
  ];
  return h(
    "dl",
    { class: "facts", "data-testid": "series-summary" },
    items.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]),
  );
}

/** A choice of the branches the points name; none when they name none. */
function branchSelect(id: string, branches: string[], current: string | undefined): HTMLSelectElement | null {
  if (branches.length === 0) return null;
  return h(
    "select",
    {
      "aria-label": "branch",
      "data-testid": "series-branch",
      onchange: (event) => {
        const value = (event.target as HTMLSelectElement).value;
        location.hash = href(["series", id], value ? { branch: value } : undefined);
      },
    },
    h("option", { value: "" }, "every branch"),
    ...branches.map((b) => h("option", { value: b, selected: b === current }, b)),
  );
}
