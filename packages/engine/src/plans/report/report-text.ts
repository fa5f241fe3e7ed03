import type { PlanReport } from "@benchwright/contract";
import { csvLine } from "../../results/csv-record.js";
import { REPORT_COLUMNS, reportRows } from "./report-rows.js";

/** The report's lines as CSV (RFC 4180, header line, CRLF), written as the metrics export writes its own. */
export function reportCsv(report: PlanReport): string {
  return (
    csvLine(REPORT_COLUMNS) +
    reportRows(report)
      .map((row) => csvLine(REPORT_COLUMNS.map((column) => row[column])))
      .join("")
  );
}

/** The report's lines as JSON Lines: one object per line, each line ended by a line feed. */
export function reportJsonLines(report: PlanReport): string {
  return reportRows(report)
    .map((row) => JSON.stringify(row) + "\n")
    .join("");
}
