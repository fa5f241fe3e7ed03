import type { Plan, PlanReport, PlanRun } from "@benchwright/sdk";
import { reportClaimLines } from "../claim-lines.js";
import { claimsList } from "./claims-list.js";
import { codeFactItems } from "../code-measured.js";
import { api, apiBase, describeError } from "../api.js";
import { chartElement } from "../charts/chart-element.js";
import { costPoints, costScatterOption } from "../charts/cost-scatter-option.js";
import { geomeanBars, geomeanText } from "../charts/geomean-bars.js";
import { metricBarHeight, metricBarOption } from "../charts/metric-bar-option.js";
import { saveText } from "../download.js";
import { h } from "../dom.js";
import { amount, figure, shortId } from "../format.js";
import { cellTitle, cellsEnded, planMatrix } from "../plan-matrix.js";
import { progressText } from "../plan-words.js";
import { pollUntil } from "../poll.js";
import { problemBox } from "../problem.js";
import { href } from "../router.js";
import { stateBadge } from "./badges.js";
import { listTable } from "./list-table.js";
import { precisionTable } from "./precision-table.js";
import { matrixTable } from "./matrix-table.js";

/** How often a run under way is read again: a cell's state changes within seconds. */
const POLL_MS = 1500;

const FORMATS = { html: { label: "HTML", type: "text/html" }, csv: { label: "CSV", type: "text/csv" } } as const;

/**
 * A run of a plan: its matrix of targets × benchmark cells, live while it runs (the run is read
 * again every POLL_MS until it ends, the report each time a cell has ended); the report's
 * ranking, a chart of the geometric means and one of performance against cost; a Cancel button
 * while it runs; the report to download as HTML or CSV.
 */
export async function planRunView(root: HTMLElement, planId: string, runId: string, signal: AbortSignal): Promise<void> {
  const [plan, first] = await Promise.all([api().getPlan(planId, { signal }), api().getPlanRun(planId, runId, { signal })]);
  const head = h("div");
  const status = h("div", { class: "status" });
  const matrixBox = h("div");
  const reportBox = h("div");
  const cancel = h("button", { type: "button", class: "danger", "data-testid": "cancel-plan-run" }, "Cancel run");
  const cancelBox = h("span", { class: "row" }, cancel, h("span", { class: "sep" }));
  let run = first;
  let report: PlanReport | undefined;
  let reportText = "";

  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    status.replaceChildren();
    try {
      render(await api().cancelPlanRun(planId, runId, { signal }));
    } catch (error) {
      if (!signal.aborted) status.replaceChildren(problemBox(error));
    } finally {
      cancel.disabled = false;
    }
  });
  const download = (format: keyof typeof FORMATS) =>
    h(
      "a",
      {
        // The endpoint's own address, for what it says; the click fetches it with the page's token (download.ts).
        href: `${apiBase()}/api/v1/plans/${encodeURIComponent(planId)}/runs/${encodeURIComponent(runId)}/report?format=${format}`,
        download: `report-${shortId(runId)}.${format}`,
        "data-testid": `download-${format}`,
        onclick: (event: Event) => {
          event.preventDefault();
          status.replaceChildren();
          api()
            .getPlanRunReportText(planId, runId, format, { signal })
            .then(
              (text) => saveText(text, `report-${shortId(runId)}.${format}`, FORMATS[format].type),
              (error) => {
                if (!signal.aborted) status.replaceChildren(problemBox(error));
              },
            );
        },
      },
      FORMATS[format].label,
    );

  root.replaceChildren(
    head,
    h("div", { class: "panel actions row", "data-testid": "plan-run-actions" }, cancelBox, "Report: ", download("html"), download("csv")),
    status,
    h("h2", {}, "Targets × cells"),
    h(
      "p",
      { class: "muted" },
      "Each square is a target's execution of a cell: its state while it runs, then its ratio to the baseline on the cell's main metric, turned so that above 1 is better: ",
      h("span", { class: "swatch tone-better" }, "green"),
      " where it is significantly better, ",
      h("span", { class: "swatch tone-worse" }, "red"),
      " where worse, plain where the difference is not significant. Hover a square for its figures or its error.",
    ),
    matrixBox,
    reportBox,
  );

  let shown = "";
  function render(next: PlanRun): void {
    run = next;
    // Redrawn only when something changed: a square redrawn under the pointer loses its hint.
    const key = JSON.stringify(run) + reportText;
    if (key === shown) return;
    shown = key;
    head.replaceChildren(...summary(plan, run));
    cancelBox.hidden = run.ended !== null || run.state === "cancelling";
    matrixBox.replaceChildren(matrixTable(planMatrix(run, report, plan.baseline)), failedCells(run));
  }

  /** The report again; its sections are drawn anew only when it has changed (a redrawn chart flickers). */
  const readReport = async () => {
    try {
      const next = await api().getPlanRunReport(planId, runId, { signal });
      // The sections say whether the run goes on: an ended run's same report is drawn again without "so far".
      const text = JSON.stringify(next) + (run.ended === null ? "" : " ended");
      if (text === reportText || signal.aborted) return;
      reportText = text;
      report = next;
      reportBox.replaceChildren(...reportSections(next, run));
    } catch (error) {
      // The matrix still shows the run's states without it.
      if (!signal.aborted)
        reportBox.replaceChildren(h("h2", {}, "Ranking"), h("p", { class: "problem", "data-testid": "report-problem" }, describeError(error)));
    }
  };

  let endedRead = -1;
  let finalRead = false;
  const refresh = async (next: PlanRun) => {
    // A cell that has ended changes the report; and once more when the run ends (its last figures, its costs).
    const ended = cellsEnded(next);
    if (ended !== endedRead || (next.ended !== null && !finalRead)) {
      endedRead = ended;
      finalRead = next.ended !== null;
      run = next;
      await readReport();
    }
    if (!signal.aborted) render(next);
  };
  await refresh(first);
  if (run.ended === null)
    void pollUntil(signal, POLL_MS, async () => {
      const next = await api().getPlanRun(planId, runId, { signal });
      await refresh(next);
      return next.ended === null;
    });
}

/** The failed cells' errors, in words as well as on hover: a hint is out of reach on a touch screen and in a screenshot. */
function failedCells(run: PlanRun): HTMLElement | string {
  const failed = run.cells.filter((c) => c.state === "failed");
  if (!failed.length) return "";
  return h(
    "ul",
    { class: "failures", "data-testid": "failed-cells" },
    failed.map((c) => h("li", {}, h("strong", {}, c.target), ` · ${cellTitle(c)}: `, h("span", { class: "error" }, c.error ?? "no error recorded"))),
  );
}

function summary(plan: Plan, run: PlanRun): HTMLElement[] {
  const p = run.progress;
  return [
    h(
      "h1",
      {},
      "Run ",
      h("code", { title: run.id }, shortId(run.id)),
      " of plan ",
      h("a", { href: href(["plans", plan.id]), title: plan.id }, shortId(plan.id)),
    ),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, "State"),
      h("dd", {}, stateBadge(run.state, "plan-run-state")),
      h("dt", {}, "Progress"),
      h(
        "dd",
        {},
        h("progress", { max: p.total, value: p.completed + p.failed + p.cancelled, "aria-label": "Cells ended" }),
        " ",
        h("span", { "data-testid": "plan-run-progress" }, progressText(run)),
      ),
      h("dt", {}, "Created"),
      h("dd", {}, run.created),
      codeFactItems(run, "plan-run"),
      h("dt", {}, "Started"),
      h("dd", {}, run.started ?? "not yet"),
      h("dt", {}, "Ended"),
      h("dd", {}, run.ended ?? "not yet"),
      h("dt", {}, "Sessions"),
      h(
        "dd",
        {},
        Object.keys(run.sessions).length
          ? Object.entries(run.sessions).flatMap(([label, id], i) => [
              i ? ", " : "",
              `${label}: `,
              h("a", { href: href(["sessions", id]), title: id }, shortId(id)),
            ])
          : "none opened yet",
      ),
    ),
  ];
}

/** The ranking with its chart, and performance against cost: from the report, partial while the run goes on. */
function reportSections(report: PlanReport, run: PlanRun): HTMLElement[] {
  // A target's cost is null without a price for its service: the columns show when one has a cost.
  const hasCost = report.targets.some((t) => t.cost);
  const bars = geomeanBars(report);
  const points = costPoints(report);
  const partial = run.ended === null;
  return [
    h("h2", {}, "Ranking"),
    h(
      "p",
      { class: "muted", "data-testid": "ranking-note" },
      `By the geometric mean of each target's ratios to the baseline (${report.baseline}) over the cells, on each cell's main metric, turned so that above 1 is better; intervals at ${figure(report.confidence * 100)}% confidence.`,
      partial ? " The run is still going: these are of the cells ended so far." : null,
    ),
    listTable(
      "ranking",
      ["Rank", "Target", "Geometric mean", "Cells", "Failed", "Cancelled", ...(hasCost ? ["Cost", "Performance per cost"] : [])],
      report.targets.map((t) =>
        h(
          "tr",
          { "data-target": t.target, class: t.target === report.baseline ? "baseline" : "" },
          h("td", {}, t.rank ?? "–"),
          h("td", {}, t.target, t.target === report.baseline ? h("span", { class: "muted" }, " (baseline)") : null),
          h("td", {}, geomeanText(t)),
          h("td", {}, t.cells),
          h("td", {}, t.failed),
          h("td", {}, t.cancelled),
          hasCost ? h("td", {}, t.cost ? `${amount(t.cost.amount)} ${t.cost.currency}` : "–") : null,
          hasCost ? h("td", {}, t.performance_per_cost != null ? figure(t.performance_per_cost) : "–") : null,
        ),
      ),
    ),
    bars.length
      ? h(
          "figure",
          { class: "metric", "data-testid": "geomean-figure" },
          h("figcaption", {}, "Geometric mean of the ratios to the baseline", h("span", { class: "muted" }, ", above 1 is better; error bars its interval")),
          chartElement(metricBarOption(bars, { nonNegative: true }), {
            kind: "geomean",
            title: "Geometric mean per target",
            height: metricBarHeight(bars.length),
          }),
        )
      : h("p", { class: "muted", "data-testid": "no-geomean" }, "No target has a geometric mean yet: it comes with the cells' figures."),
    h("h2", {}, "Performance against cost"),
    points.length
      ? h(
          "figure",
          { class: "metric", "data-testid": "cost-figure" },
          h("figcaption", {}, "Geometric mean against cost", h("span", { class: "muted" }, ", one point per target: up and to the left is better value")),
          chartElement(costScatterOption(points), { kind: "cost", title: "Geometric mean against cost per target", height: 320 }),
        )
      : h(
          "p",
          { class: "muted", "data-testid": "no-costs" },
          "No prices were set for these targets' service types (price_per_hour in their configurations): there is no cost to set the performance against.",
        ),
    ...claimsList(reportClaimLines(report), report.margin),
    ...precisionTable(report),
  ];
}
