import type { ClientContext } from "../client-context.js";
import { exportMetricsStream, exportMetricsText, streamMetricRows, type MetricsExportOptions } from "../metric-rows.js";
import type { MetricRow } from "../types.js";

export interface MetricsMethods {
  /** The metric figures of the executions that match the filters, as CSV (RFC 4180) or JSON Lines text. */
  exportMetrics(options: MetricsExportOptions & { format: "csv" | "jsonl" }): Promise<string>;
  /**
   * The same text as it streams in, for a file or a pipe without holding it all: bytes of CSV
   * or JSON Lines. Cancel the stream (or abort `signal`) to stop; an error answer throws first.
   *
   * @example
   * await pipeline(Readable.fromWeb(await bw.exportMetricsStream({ format: "csv" })), createWriteStream("metrics.csv"));
   */
  exportMetricsStream(options: MetricsExportOptions & { format: "csv" | "jsonl" }): Promise<ReadableStream<Uint8Array>>;
  /**
   * The same figures, one `MetricRow` at a time as they stream in.
   *
   * @example
   * for await (const row of bw.metricRows({ tool: "fio" })) console.log(row.execution_id, row.metric, row.value, row.unit);
   */
  metricRows(options?: MetricsExportOptions): AsyncIterable<MetricRow>;
}

export function metricsMethods({ raw }: ClientContext): MetricsMethods {
  return {
    exportMetrics: (o) => exportMetricsText(raw, o.format, o),
    exportMetricsStream: (o) => exportMetricsStream(raw, o.format, o),
    metricRows: (o) => streamMetricRows(raw, o),
  };
}
