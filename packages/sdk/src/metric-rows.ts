import type { Client } from "openapi-fetch";
import { BenchwrightProblemError } from "./errors.js";
import type { paths } from "./generated/schema.js";
import { LIST_QUERY_SERIALIZER, listQuery, type ExecutionFilters } from "./lists.js";
import type { MetricRow } from "./types.js";

/** Options of `exportMetrics` and `metricRows`: the filters of `listExecutions`, and per-call `headers` and `signal`. */
export interface MetricsExportOptions extends ExecutionFilters {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

function exportRequest(raw: Client<paths>, format: "csv" | "jsonl", options: MetricsExportOptions, parseAs: "text" | "stream") {
  const { limit: _limit, cursor: _cursor, ...filters } = listQuery(options);
  return raw.GET("/executions/metrics", {
    params: { query: { ...filters, format } },
    querySerializer: LIST_QUERY_SERIALIZER,
    parseAs,
    headers: options.headers,
    signal: options.signal,
  });
}

/** The metrics export as text: CSV (RFC 4180, with its header line) or JSON Lines. */
export async function exportMetricsText(raw: Client<paths>, format: "csv" | "jsonl", options: MetricsExportOptions = {}): Promise<string> {
  const { data, error, response } = await exportRequest(raw, format, options, "text");
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  return data as string;
}

/** The metrics export's bytes as they come, CSV or JSON Lines: cancelling the stream closes the connection. */
export async function exportMetricsStream(
  raw: Client<paths>,
  format: "csv" | "jsonl",
  options: MetricsExportOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const { data, error, response } = await exportRequest(raw, format, options, "stream");
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  return (data as ReadableStream<Uint8Array> | null | undefined) ?? new ReadableStream({ start: (c) => c.close() });
}

/**
 * The metrics export's rows as they stream in (JSON Lines on the wire), one `MetricRow` per
 * metric figure. Leaving the loop early closes the connection.
 */
export async function* streamMetricRows(raw: Client<paths>, options: MetricsExportOptions = {}): AsyncGenerator<MetricRow, void, undefined> {
  const reader = (await exportMetricsStream(raw, "jsonl", options)).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      // The last piece is a line still coming (or nothing, after a line feed).
      buffer = done ? "" : lines.pop()!;
      for (const line of lines) if (line.trim()) yield JSON.parse(line) as MetricRow;
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
