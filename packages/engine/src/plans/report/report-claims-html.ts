import type { PlanReport } from "@benchwright/contract";
import { cellTitle } from "./report-labels.js";
import { precisionSection } from "./report-precision-html.js";

type Figure = PlanReport["cells"][number]["metrics"][number]["figures"][number];

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${(x * 100).toFixed(1)}%`);
const range = (low: number | null, high: number | null) => (low === null || high === null ? "" : ` <small>(${pct(low)} – ${pct(high)})</small>`);

/**
 * The report's claims (with a margin: one sentence each, with its adjusted p-value) and each
 * target's variability on each cell's main metric, between machines and within one. Sections of
 * their own, so that the page's other sections stay as they are.
 */
export function claimsSections(report: PlanReport, e: (t: unknown) => string): string {
  return `${claimsSection(report, e)}\n${variabilitySection(report, e)}\n${precisionSection(report, e)}`;
}

function claimsSection(report: PlanReport, e: (t: unknown) => string): string {
  const claimed = report.cells.flatMap((c) =>
    c.metrics.flatMap((m) => m.figures.filter((f): f is Figure & { claim: NonNullable<Figure["claim"]> } => !!f.claim)),
  );
  if (report.margin === undefined || !claimed.length) return "";
  const items = claimed
    .map(
      (f) =>
        `<li data-claim="${e(f.claim.verdict)}"><b>${e(f.claim.verdict.replace("_", " "))}</b>: ${e(f.claim.sentence)} <small>adjusted p ${e(f.claim.p_adjusted.toPrecision(2))}</small></li>`,
    )
    .join("\n");
  return `<section id="claims">
<h2>Claims</h2>
<p>With a margin of ${e(pct(report.margin))}: better or worse where the ratio's interval lies wholly beyond it, equivalent where wholly within it, not worse or not better where one side is established, inconclusive otherwise. The claims' p-values are adjusted together (Holm), so that the chance of any wrong claim in this report stays within ${e(Math.round((1 - report.confidence) * 100))}%.</p>
<ul data-testid="claims">
${items}
</ul>
</section>`;
}

function variabilitySection(report: PlanReport, e: (t: unknown) => string): string {
  const rows = report.cells.flatMap((c) =>
    (c.metrics[0]?.figures ?? []).flatMap((f) => {
      const v = f.variability;
      if (!v) return [];
      return [
        `<tr><th scope="row">${e(f.target)}</th><td>${e(cellTitle(c))} <small>${e(c.main_metric ?? "")}</small></td><td>${v.machines}</td><td>${v.runs}</td>` +
          `<td>${v.machines > 1 ? `${pct(v.between_cv)}${range(v.between_cv_ci_low, v.between_cv_ci_high)}` : "one machine"}</td>` +
          `<td>${pct(v.within_cv)}${range(v.within_cv_ci_low, v.within_cv_ci_high)}</td><td>${v.interval_from === "machines" ? "the machine type" : "one machine only"}</td>` +
          `<td>${e(notesOf(v))}</td></tr>`,
      ];
    }),
  );
  if (!rows.length) return "";
  return `<section id="variability">
<h2>Variability</h2>
<p>How much each target's main metric varies between its machines and from run to run on one machine (coefficients of variation, with their intervals). Where one machine measured a cell, its interval says nothing of other machines of its type.</p>
<table data-testid="variability">
<thead><tr><th>Target</th><th>Cell</th><th>Machines</th><th>Runs</th><th>Between machines</th><th>Within a machine</th><th>Interval of</th><th>Checks</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
</section>`;
}

/** What the robust checks found: warm-up and outliers flagged (not dropped), a skewed interval bootstrapped. */
function notesOf(v: NonNullable<Figure["variability"]>): string {
  const notes = [
    v.warmup_discarded ? `${v.warmup_discarded} warm-up run(s) left out` : "",
    v.warmup_runs ? `warm-up: ${v.warmup_runs} run(s) flagged` : "",
    v.outliers ? `${v.outliers} outlier(s) by ${v.outlier_rule}` : "",
    v.interval_method === "bootstrap" ? `interval by bootstrap (skewness ${v.skewness.toFixed(1)})` : "",
  ].filter(Boolean);
  return notes.length ? notes.join("; ") : "none";
}
