import type { PlanReport } from "@benchwright/contract";
import { plusMinusPercent as pct, precisionCells } from "@benchwright/contract/precision-cells";
import { cellTitle } from "./report-labels.js";

/** A precision plan's section: per target and cell, the precision asked and reached, the machines and runs it took, its cost and why it stopped. */
export function precisionSection(report: PlanReport, e: (t: unknown) => string): string {
  const rows = precisionCells(report).map(
    ({ cell: c, state: s, precision: p, cost }) =>
      `<tr data-stop="${e(p.stop ?? "")}"><th scope="row">${e(s.target)}</th><td>${e(cellTitle(c))}</td><td>${e(pct(p.asked))}</td><td>${e(pct(p.reached))}</td>` +
      `<td>${p.machines}</td><td>${p.runs}</td><td>${p.rounds.length}</td><td>${e(cost ?? "–")}</td><td>${e(p.reason ?? "going on")}</td></tr>`,
  );
  if (!rows.length) return "";
  return `<section id="precision">
<h2>Precision</h2>
<p>Each cell was measured in rounds until its mean's interval was as narrow as asked, at the least cost: a pilot, then machines or runs added, whichever bought more precision per unit of cost.</p>
<table data-testid="precision">
<thead><tr><th>Target</th><th>Cell</th><th>Asked</th><th>Reached</th><th>Machines</th><th>Values</th><th>Rounds</th><th>Cost</th><th>Why it stopped</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
</section>`;
}
