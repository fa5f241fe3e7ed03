import type { components } from "@benchwright/contract";
import type { RunMetricsRow } from "../model/metrics.js";
import { formatTimestamp } from "../time.js";

/** One metric figure as the metrics export writes it: the contract's `MetricRow`. */
export type MetricRow = components["schemas"]["MetricRow"];

/** The figures of successful run attempts (Store.runMetrics' rows), one row each, in order. */
export function metricRowsOf(runs: RunMetricsRow[]): MetricRow[] {
  return runs.flatMap((run) => {
    const attempt = run.attempt;
    if (attempt === null || run.started === null) return [];
    const vms = run.exec_env?.vms ?? [];
    const started = formatTimestamp(new Date(run.started));
    return (run.metrics ?? []).map((metric) => {
      // A figure names its machine; one of an execution on one machine was measured there.
      const vm = metric.vm === undefined ? (vms.length === 1 ? vms[0] : undefined) : vms.find((v) => v.id === metric.vm);
      return {
        session_id: run.session_id,
        provider: run.provider_name,
        service_type: run.service_type,
        machine: metric.vm ?? vm?.id ?? "",
        machine_ip: vm?.ip ?? "",
        tool: run.tool_id,
        workload: run.workload_id,
        parameters: run.params ?? {},
        repetition: metric.repetition ?? 1,
        metric: metric.name,
        value: metric.value,
        unit: metric.unit ?? "",
        tags: metric.tags ?? {},
        execution_id: run.execution_id,
        attempt,
        started,
      };
    });
  });
}
