import type { Metric, ParamValue } from "@benchwright/catalog";
import type { VmRecord } from "./machines.js";

export interface StoredMetric extends Metric {
  vm?: string;
  /** The role of the machine's part that measured it, for a workload with roles. */
  role?: string;
  /** Which repetition of a repeated run measured it (absent for a run that measures once). */
  repetition?: number;
}

/** One successful run attempt of an execution (see Store.runMetrics); `attempt` and after are null for an execution without one. */
export interface RunMetricsRow {
  seq: string;
  execution_id: string;
  session_id: string;
  provider_name: string;
  service_type: string;
  tool_id: string;
  workload_id: string;
  params: Record<string, ParamValue>;
  exec_env: { vms: VmRecord[] };
  attempt: number | null;
  started: Date | null;
  metrics: StoredMetric[] | null;
}
