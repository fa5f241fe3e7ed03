import { Readable } from "node:stream";
import type { Response } from "express";
import { csvLine, type MetricRow } from "@benchwright/engine";
import { pipe } from "./log-response.js";

export type ExportFormat = "csv" | "jsonl";

/** The columns of the CSV export, in the order of the contract's `MetricRow` (its test checks that). */
export const METRIC_COLUMNS: ReadonlyArray<keyof MetricRow> = [
  "session_id",
  "provider",
  "service_type",
  "machine",
  "machine_ip",
  "tool",
  "workload",
  "parameters",
  "repetition",
  "metric",
  "value",
  "unit",
  "tags",
  "execution_id",
  "attempt",
  "started",
];

const MEDIA_TYPES: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8; header=present", jsonl: "application/x-ndjson" };

/**
 * Streams the metrics export, a batch of rows at a time as the engine reads them. The first
 * batch is read before anything is sent: a bad filter, or a database that is away, is still
 * a problem answer. A failure later cuts the answer off, so that it never looks whole.
 */
export async function sendMetricsExport(res: Response, batches: AsyncGenerator<MetricRow[], void>, format: ExportFormat): Promise<void> {
  const first = await batches.next();
  res.status(200).type(MEDIA_TYPES[format]).set("Content-Disposition", `attachment; filename="metrics.${format}"`);
  const line = format === "csv" ? csvRecord : jsonLine;
  async function* text() {
    if (format === "csv") yield csvLine(METRIC_COLUMNS);
    for (let batch = first; !batch.done; batch = await batches.next()) {
      if (batch.value.length) yield batch.value.map(line).join("");
    }
  }
  await pipe(Readable.from(text()), res);
}

function jsonLine(row: MetricRow): string {
  return JSON.stringify(row) + "\n";
}

function csvRecord(row: MetricRow): string {
  return csvLine(METRIC_COLUMNS.map((column) => row[column]));
}
