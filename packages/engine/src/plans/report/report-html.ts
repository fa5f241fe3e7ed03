import type { PlanReport } from "@benchwright/contract";
import escapeHtml from "escape-html";
import { cellsChart, rankingChart } from "./report-charts.js";
import { performanceRatio } from "./report-cell.js";
import { claimsSections } from "./report-claims-html.js";
import { cellTitle, figure } from "./report-labels.js";

type ReportCell = PlanReport["cells"][number];

/**
 * The report as one HTML page that stands alone: its style inline, its charts inline SVG drawn
 * on the server (report-charts.ts), no script and no URL, so it opens the same saved to a file,
 * offline or mailed. Its Content-Security-Policy forbids any fetch, should a later change add
 * one by mistake. Every text from the plan or the run (labels, params, errors) is escaped.
 */
export function reportHtml(report: PlanReport): string {
  const e = (text: unknown) => escapeHtml(String(text));
  const hasCost = report.targets.some((t) => "cost" in t);
  const costCells = (t: PlanReport["targets"][number]) =>
    hasCost ? `<td>${t.cost ? `${figure(t.cost.amount)} ${e(t.cost.currency)}` : "–"}</td><td>${figure(t.performance_per_cost)}</td>` : "";
  const ranking = report.targets
    .map(
      (t) =>
        `<tr><td>${t.rank ?? "–"}</td><th scope="row">${e(t.target)}${t.target === report.baseline ? " <small>(baseline)</small>" : ""}</th>` +
        `<td>${figure(t.geomean)}</td><td>${interval(t.geomean_ci_low, t.geomean_ci_high)}</td><td>${t.cells}</td><td>${t.failed}</td><td>${t.cancelled}</td>${costCells(t)}</tr>`,
    )
    .join("\n");
  const matrixHead = report.cells.map((c) => `<th scope="col">${e(cellTitle(c))}<br><small>${e(c.main_metric ?? "no metric")}</small></th>`).join("");
  const matrixRows = report.targets
    .map((t) => `<tr><th scope="row">${e(t.target)}</th>${report.cells.map((c) => matrixCell(c, t.target, e)).join("")}</tr>`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Report of run ${e(report.run_id)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Report of run ${e(report.run_id)}</h1>
<p>Plan ${e(report.plan_id)}. Every ratio is to the baseline target, <b>${e(report.baseline)}</b>; intervals at ${e(report.confidence * 100)}% confidence.</p>
<section id="ranking">
<h2>Ranking</h2>
<p>By the geometric mean of each target's ratios over the cells, on each cell's main metric, turned so that above 1 is better.</p>
<table data-testid="ranking">
<thead><tr><th>Rank</th><th>Target</th><th>Geometric mean</th><th>Interval</th><th>Cells</th><th>Failed</th><th>Cancelled</th>${hasCost ? "<th>Cost</th><th>Performance per cost</th>" : ""}</tr></thead>
<tbody>
${ranking}
</tbody>
</table>
<figure class="chart" data-chart="ranking">${rankingChart(report)}</figure>
</section>
<section id="matrix">
<h2>Targets × cells</h2>
<p>Each target's ratio to the baseline on the cell's main metric: green where it is significantly better, red where worse, plain where the difference is not significant.</p>
<div class="wide"><table data-testid="matrix">
<thead><tr><th>Target</th>${matrixHead}</tr></thead>
<tbody>
${matrixRows}
</tbody>
</table></div>
<figure class="chart" data-chart="cells">${cellsChart(report)}</figure>
</section>
${claimsSections(report, e)}
<section id="cells">
<h2>Every metric</h2>
${report.cells.map((c) => cellSection(c, e)).join("\n")}
</section>
${failures(report, e)}
</body>
</html>
`;
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #1d2230; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #d4d7de; padding: 0.3em 0.6em; text-align: right; }
th[scope="row"], thead th { text-align: left; background: #f4f5f8; }
.wide { overflow-x: auto; }
td.better { background: var(--shade); }
td.worse { background: var(--shade); }
td.failed, td.cancelled { color: #8a8f9c; font-style: italic; }
tr.failed td.state { color: #8c1d12; }
small { color: #5b6172; }
figure.chart { margin: 1em 0; }
`;

function interval(low: number | null, high: number | null): string {
  return low === null || high === null ? "–" : `${figure(low)} – ${figure(high)}`;
}

/** One target's square of the matrix: its ratio, coloured by how far it is from 1 when the verdict says the difference is significant. */
function matrixCell(cell: ReportCell, target: string, e: (t: unknown) => string): string {
  const state = cell.states.find((s) => s.target === target);
  const f = cell.metrics[0]?.figures.find((x) => x.target === target);
  if (!f) {
    const why = state?.error ? ` title="${e(state.error)}"` : "";
    return `<td class="${state?.state === "cancelled" ? "cancelled" : "failed"}"${why}>${e(state?.state ?? "not in the run")}</td>`;
  }
  const ratio = performanceRatio(cell, target);
  const significant = f.verdict === "better" || f.verdict === "worse";
  const strength = ratio === null ? 0 : Math.min(1, Math.abs(Math.log2(ratio)));
  // Never darker than 76% lightness: the ratio's dark text stays readable on the strongest red or green.
  const shade = f.verdict === "better" ? `hsl(130 55% ${92 - 16 * strength}%)` : `hsl(0 70% ${92 - 16 * strength}%)`;
  const style = significant ? ` class="${f.verdict}" style="--shade: ${shade}"` : "";
  return `<td${style} data-verdict="${e(f.verdict)}">${ratio === null ? "–" : `${figure(ratio)}×`}<br><small>${e(f.verdict.replace("_", " "))}</small></td>`;
}

function cellSection(cell: ReportCell, e: (t: unknown) => string): string {
  const rows = cell.metrics.flatMap((m) =>
    m.figures.map(
      (f) =>
        `<tr><th scope="row">${e(m.name)}${Object.keys(m.tags).length ? ` <small>${e(JSON.stringify(m.tags))}</small>` : ""}</th><td>${e(f.target)}</td>` +
        `<td>${f.n}</td><td>${figure(f.mean)} ${e(m.unit)}</td><td>${interval(f.ci_low, f.ci_high)}</td><td>${figure(f.ratio)}</td>` +
        `<td>${interval(f.ratio_ci_low, f.ratio_ci_high)}</td><td>${e(f.verdict.replace("_", " "))}</td><td>${f.rank ?? "–"}</td></tr>`,
    ),
  );
  const body = rows.length
    ? `<table><thead><tr><th>Metric</th><th>Target</th><th>n</th><th>Mean</th><th>Interval</th><th>Ratio</th><th>Ratio interval</th><th>Verdict</th><th>Rank</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
    : "<p>No figure.</p>";
  return `<h3>${e(cellTitle(cell))}</h3>\n${body}`;
}

function failures(report: PlanReport, e: (t: unknown) => string): string {
  const title = "<h2>Failed and cancelled cells</h2>";
  if (!report.failures.length) return `<section id="failures">${title}<p>None.</p></section>`;
  // A failed cell's state in red, a cancelled one's plain: cancelling is the user's doing, not the target's.
  const rows = report.failures
    .map(
      (f) =>
        `<tr class="${e(f.state)}"><th scope="row">${e(f.target)}</th><td>${e(cellTitle(f))}</td><td class="state">${e(f.state)}</td><td class="error">${e(f.error ?? "")}</td></tr>`,
    )
    .join("\n");
  return `<section id="failures">${title}<table data-testid="failures"><thead><tr><th>Target</th><th>Cell</th><th>State</th><th>Error</th></tr></thead><tbody>\n${rows}\n</tbody></table></section>`;
}
