import type { Plan } from "@benchwright/contract";
import type { StoredMetric } from "../../../model/metrics.js";
import type { PlanRunCell } from "../../../model/plan-runs.js";
import type { ComparedRow } from "../../../results/comparison.js";

export const PLAN_ID = "7c1e9a3b-5d2f-4b8e-9c6a-1f0e2d3c4b5a";
export const RUN_ID = "2b7e4c1a-9d3f-4e8b-a6c5-0f1e2d3c4b5a";

/** A plan of two targets (`here`, the baseline, and `fast`) and three benchmarks. */
function syntheticPlan(labels: [string, string] = ["here", "fast"]): Plan {
  return {
    id: PLAN_ID,
    created: "2026-11-21 10:12:30",
    targets: labels.map((label) => ({ label, provider: "local", service: "default", class: "local", inline: false })),
    benchmarks: [
      { tool: "sysbench", workload: "threads", params: { threads: [1, 4] }, zip: false, cells: 2 },
      { tool: "idle", workload: "idle5", params: {}, zip: false, cells: 1 },
      { tool: "qperf", workload: "tcp", params: {}, zip: false, cells: 1 },
    ],
    concurrency: { per_target: 1, overall: 2 },
    retries: 0,
    on_failure: "continue",
    keep_sessions: false,
    baseline: labels[0],
    cells: 4,
    executions: 8,
  };
}

/** One figure per value, as repetitions store them. */
function figures(name: string, better: "higher" | "lower" | undefined, unit: string, values: number[]): StoredMetric[] {
  return values.map((value, i) => ({ name, value, unit, tags: {}, ...(better ? { better } : {}), repetition: i + 1 }) as StoredMetric);
}

function row(id: string, metrics: StoredMetric[]): ComparedRow {
  return {
    id,
    session_id: `s-${id}`,
    provider: "local",
    service_type: "default",
    tool_id: "sysbench",
    workload_id: "threads",
    state: "completed",
    params: {},
    exec_env: { vms: [] },
    metrics,
  };
}

/**
 * A run of syntheticPlan: in the first sysbench cell `fast` does twice the events (a significant
 * difference), in the second the same; `fast`'s idle cell failed; in qperf's cell, whose main
 * metric is a latency (lower is better), `fast` takes half the time.
 */
export function syntheticRun(labels: [string, string] = ["here", "fast"]) {
  const [here, fast] = labels;
  const executions = new Map<string, ComparedRow>();
  const cells: PlanRunCell[] = [];
  const cell = (
    target: string,
    benchmark: number,
    index: number,
    tool: string,
    workload: string,
    params: Record<string, unknown>,
    metrics: StoredMetric[] | null,
    error?: string,
  ) => {
    const id = metrics ? `e-${target}-${benchmark}-${index}` : null;
    if (id && metrics) executions.set(id, row(id, metrics));
    cells.push({
      target,
      benchmark,
      cell: index,
      tool,
      workload,
      params,
      state: metrics ? "completed" : "failed",
      execution_id: id,
      attempts: 2,
      error: error ?? null,
    });
  };
  const eps = (values: number[]) => figures("events_per_second", "higher", "events/s", values);
  const lat = (values: number[]) => figures("latency_avg_ms", "lower", "ms", values);
  cell(here, 0, 0, "sysbench", "threads", { threads: 1 }, [...eps([100, 101, 99, 100.5, 99.5]), ...lat([10, 10.1, 9.9, 10, 10])]);
  cell(fast, 0, 0, "sysbench", "threads", { threads: 1 }, [...eps([200, 202, 198, 201, 199]), ...lat([5, 5.05, 4.95, 5, 5])]);
  cell(here, 0, 1, "sysbench", "threads", { threads: 4 }, eps([100, 110, 90, 105, 95]));
  cell(fast, 0, 1, "sysbench", "threads", { threads: 4 }, eps([101, 109, 91, 104, 96]));
  cell(here, 1, 0, "idle", "idle5", {}, figures("idle_seconds", "lower", "s", [5.004, 5.003, 5.005]));
  cell(fast, 1, 0, "idle", "idle5", {}, null, "machine fast-1 did not answer on port 22");
  cell(here, 2, 0, "qperf", "tcp", {}, figures("latency_us", "lower", "us", [40, 41, 39]));
  cell(fast, 2, 0, "qperf", "tcp", {}, figures("latency_us", "lower", "us", [20, 20.5, 19.5]));
  return { plan: syntheticPlan(labels), cells, executions };
}
