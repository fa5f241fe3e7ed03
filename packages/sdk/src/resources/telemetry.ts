import type { ClientContext, RequestOptions } from "../client-context.js";
import type { ExecutionTelemetry } from "../types.js";

export interface TelemetryMethods {
  /**
   * What the machines' samplers saw during a run attempt (the last by default): per machine,
   * a sample a second (CPU time by kind, steal included, run queue, memory, disk, network)
   * and their summary (`cpu_steal_mean`, `run_queue_max`...).
   *
   * @example
   * const { machines } = await bw.getTelemetry(execId);
   * for (const m of machines) console.log(m.machine_id, m.summary.find((f) => f.name === "cpu_steal_mean")?.value);
   */
  getTelemetry(execId: string, options?: RequestOptions & { attempt?: number }): Promise<ExecutionTelemetry>;
  /** The same samples as CSV, one line per sample. */
  getTelemetryCsv(execId: string, options?: RequestOptions & { attempt?: number }): Promise<string>;
}

export function telemetryMethods({ raw, unwrapAs, init }: ClientContext): TelemetryMethods {
  return {
    getTelemetry: (execId, o) =>
      unwrapAs<ExecutionTelemetry>(
        raw.GET("/executions/{exec_id}/telemetry", {
          params: { path: { exec_id: execId }, query: { attempt: o?.attempt } },
          ...init(o),
        }),
      ),
    getTelemetryCsv: (execId, o) =>
      unwrapAs<string>(
        raw.GET("/executions/{exec_id}/telemetry", {
          params: { path: { exec_id: execId }, query: { attempt: o?.attempt, format: "csv" } },
          parseAs: "text",
          ...init(o),
          // Asked for by name too, so that a mock of the contract (Prism) answers its CSV example.
          headers: { Accept: "text/csv", ...o?.headers },
        }),
      ),
  };
}
