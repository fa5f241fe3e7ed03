import { plusMinusPercent as pct, precisionCells } from "@benchwright/contract/precision-cells";
import type { PlanReport } from "@benchwright/sdk";
import { h } from "../dom.js";
import { listTable } from "./list-table.js";

/** A precision plan's cells: per target and cell, the precision asked and reached, what it took and cost, and why it stopped; nothing for another plan. */
export function precisionTable(report: PlanReport): HTMLElement[] {
  const rows = precisionCells(report).map(({ cell: c, state: s, precision: p, cost }) =>
    h(
      "tr",
      { "data-target": s.target, "data-stop": p.stop ?? "" },
      h("td", {}, s.target),
      h("td", {}, `${c.tool}/${c.workload} #${c.benchmark}.${c.cell}`),
      h("td", {}, pct(p.asked)),
      h("td", {}, pct(p.reached)),
      h("td", {}, p.machines),
      h("td", {}, p.runs),
      h("td", {}, p.rounds.length),
      h("td", {}, cost ?? "–"),
      h("td", {}, p.reason ?? "going on"),
    ),
  );
  if (!rows.length) return [];
  return [
    h("h2", {}, "Precision"),
    h(
      "p",
      { class: "muted" },
      "Each cell was measured in rounds, adding machines or runs, whichever bought more precision per unit of cost, until its interval was as narrow as asked.",
    ),
    listTable("precision", ["Target", "Cell", "Asked", "Reached", "Machines", "Values", "Rounds", "Cost", "Why it stopped"], rows),
  ];
}
