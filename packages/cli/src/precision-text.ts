import { plusMinusPercent as pct, precisionCells } from "@benchwright/contract/precision-cells";
import type { PlanReport } from "@benchwright/sdk";

/** A precision plan's cells as lines: per target and cell, the precision asked and reached, what it took and cost, and why it stopped. */
export function precisionText(report: PlanReport): string {
  const lines = precisionCells(report).map(
    ({ cell: c, state: s, precision: p, cost }) =>
      `  ${s.target} ${c.tool}/${c.workload} #${c.benchmark}.${c.cell}: ${pct(p.reached)} of ${pct(p.asked)} asked, ${p.machines} machines, ${p.runs} values, ${p.rounds.length} rounds, ${cost ?? "cost unknown"}; ${p.stop ?? "going on"}: ${p.reason ?? ""}`,
  );
  return lines.length ? `\nPrecision\n${lines.join("\n")}\n` : "";
}
