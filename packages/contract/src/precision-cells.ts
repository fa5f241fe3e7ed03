// Kept apart from the package's main entry, which reads the bundled spec with node:fs: the
// dashboard bundles this module for the browser, as the CLI and the engine's HTML report use it.
import type { PlanCellPrecision, PlanReport } from "./schema-types.js";

type ReportCell = PlanReport["cells"][number];
type ReportState = ReportCell["states"][number];

/** One target's state of a cell that a precision plan measured, with its cost as text. */
export interface PrecisionCell {
  cell: ReportCell;
  state: ReportState;
  precision: PlanCellPrecision;
  /** The cost to three significant figures and its unit (`12.3 EUR`, `0.500 machine hours`); null when unknown. */
  cost: string | null;
}

/** Every cell and target state of a report that has a precision, in the report's order; none for another plan. */
export function precisionCells(report: PlanReport): PrecisionCell[] {
  return report.cells.flatMap((cell) =>
    cell.states.flatMap((state) => {
      const precision = state.precision;
      return precision ? [{ cell, state, precision, cost: costText(precision) }] : [];
    }),
  );
}

function costText(p: PlanCellPrecision): string | null {
  if (p.cost === null) return null;
  const unit = p.unit === "money" ? (p.currency ?? "") : p.unit.replace("_", " ");
  return `${p.cost.toPrecision(3)} ${unit}`;
}

/** A relative half-width as `±1.23%`; a dash before there is one. */
export function plusMinusPercent(x: number | null): string {
  return x === null ? "–" : `±${(x * 100).toFixed(2)}%`;
}
