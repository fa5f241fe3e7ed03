import type { Execution, ExecutionCost, Provenance, Session, StepAttempt, StepRecord } from "@benchwright/contract";
import type { ExecutionRow, ExecutionWithSteps } from "../model/executions.js";
import type { SessionSummary } from "../model/sessions.js";
import type { StepRow, StepSummary } from "../model/steps.js";
import { metricsView } from "../results/repetitions.js";
import { formatDuration, formatTimestamp } from "../time.js";

/** Row to wire shape; the only place that decides what a client sees (never a credential). */
export function sessionView(row: SessionSummary, executions: Execution[]): Session {
  return {
    id: row.id,
    provider: {
      id: row.provider_name,
      type: row.service_type,
      class: row.provider_class,
      ...(row.driver ? { driver: row.driver } : {}),
      ...(row.region ? { region: row.region } : {}),
    },
    created: formatTimestamp(new Date(row.created)),
    state: row.state,
    ...(row.deleted_at ? { deleted: formatTimestamp(new Date(row.deleted_at)) } : {}),
    owner: row.owner,
    shared: row.shared,
    executions,
  };
}

/** `cost`: its share of its session's price, when the session's service type has one (see Costs). */
export function executionView(row: ExecutionRow, steps: StepSummary[], cost?: ExecutionCost): Execution {
  return {
    id: row.id,
    session_id: row.session_id,
    state: row.state,
    created: formatTimestamp(new Date(row.created)),
    test: row.test,
    params: row.params ?? {},
    exec_env: { vms: row.exec_env.vms ?? [] },
    ...(row.repetitions ? { repetitions: row.repetitions } : {}),
    ...(row.telemetry === false ? { telemetry: false } : {}),
    ...(row.branch ? { branch: row.branch } : {}),
    ...(row.commit_id ? { commit: row.commit_id } : {}),
    // The run's figures, then how long the machines its prepares made took to boot.
    metrics: [...metricsView(row.metrics), ...steps.flatMap((s) => (s.step === "prepare" ? metricsView(s.metrics) : []))],
    ...withProvenance(lastRunProvenance(steps)),
    ...(cost ? { cost } : {}),
    steps: steps.map(stepView),
  };
}

/**
 * The provenance of the run whose figures are the execution's `metrics`: its last successful
 * run attempt's (steps come oldest first). Undefined before a run succeeded, or for a run from
 * before provenance was recorded.
 */
export function lastRunProvenance(steps: StepSummary[]): Provenance | undefined {
  const runs = steps.filter((s) => s.step === "run" && s.state === "succeeded");
  return runs[runs.length - 1]?.provenance ?? undefined;
}

function withProvenance(provenance: Provenance | null | undefined): { provenance?: Provenance } {
  return provenance ? { provenance } : {};
}

/** Executions with their steps (one query's rows) as the wire shows them. */
export function executionViews(rows: ExecutionWithSteps[], costs?: ReadonlyMap<string, ExecutionCost>): Execution[] {
  return rows.map((r) => executionView(r, r.steps, costs?.get(r.id)));
}

function stepView(row: StepSummary): StepRecord {
  // The code tells a cancelled attempt (`step_cancelled`) from a failed one, which the error's words do not reliably.
  return { ...attemptView(row), error: row.error, ...(row.state === "failed" && row.error_code ? { error_code: row.error_code } : {}) };
}

/** What a step record and a step attempt both show of an attempt, in the wire's order. */
function attemptView(row: Omit<StepSummary, "error">) {
  return {
    step: row.step,
    attempt: row.attempt,
    state: row.state,
    started: formatTimestamp(new Date(row.started)),
    duration: row.duration === null ? null : formatDuration(row.duration),
    exit_code: row.exit_code,
  };
}

/** One attempt of a step as its own resource, with its metrics and, when it failed, why. */
export function stepAttemptView(step: StepRow): StepAttempt {
  return {
    execution_id: step.execution_id,
    ...attemptView(step),
    metrics: metricsView(step.metrics),
    ...withProvenance(step.provenance),
    ...(step.state === "failed" ? { error: { code: step.error_code ?? "step_failed", detail: step.error ?? "" } } : {}),
  };
}
