import type { PlanReport } from "@benchwright/sdk";

const pct = (x: number | null) => (x === null ? "–" : `±${(x * 100).toFixed(2)}%`);

/** A precision plan's cells as lines: per target and cell, the precision asked and reached, what it took and cost, and why it stopped. */
export function precisionText(report: PlanReport): string {
  const lines = report.cells.flatMap((c) =>
    c.states.flatMap((s) => {
      const p = s.precision;
      if (!p) return [];
      const cost = p.cost === null ? "cost unknown" : `${p.cost.toPrecision(3)} ${p.unit === "money" ? (p.currency ?? "") : p.unit.replace("_", " ")}`;
      return [
        `  ${s.target} ${c.tool}/${c.workload} #${c.benchmark}.${c.cell}: ${pct(p.reached)} of ${pct(p.asked)} asked, ${p.machines} machines, ${p.runs} values, ${p.rounds.length} rounds, ${cost}; ${p.stop ?? "going on"}: ${p.reason ?? ""}`,
      ];
    }),
  );
  return lines.length ? `\nPrecision\n${lines.join("\n")}\n` : "";
}
