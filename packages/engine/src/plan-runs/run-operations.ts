import type { Alerts } from "../alerts/alerts.js";
import type { EngineLog } from "../engine-log.js";
import type { Executions } from "../executions/executions.js";
import type { PlanView } from "../model/plans.js";
import { planView } from "../plans/plans.js";
import type { Quotas } from "../quotas/quotas.js";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Steps } from "../steps/steps.js";
import type { Sessions } from "../sessions/sessions.js";
import type { Store } from "../store/store.js";
import type { RunCollaborators } from "./run-conduct.js";
import type { PlanRunView } from "./run-view.js";

export interface RunOperationsOptions {
  store: Store;
  secrets: SecretBox;
  log: EngineLog;
  sessions: Sessions;
  executions: Executions;
  steps: Steps;
  /** A run is held to its starter's quotas, as its own requests would be: a run over them waits (see driveCell, openTarget). */
  quotas: Quotas;
  alerts: Alerts;
  /** Makes the run's report (see PlanReports.report): a final one is then kept. */
  report: (planId: string, runId: string) => Promise<unknown>;
  /** Whoever embeds the engine, told as the webhooks' schedule_failed is (EngineOptions.onScheduledRunFailed). */
  onScheduledRunFailed?: (run: PlanRunView, plan: PlanView) => void | Promise<void>;
  /** What executions cost, for a precision plan's budget (see precision-cell.ts). */
  costsOf: RunCollaborators["costsOf"];
  /** How many machines a target's session may have, for a precision plan (see machine-limit.ts). */
  machineLimit: RunCollaborators["machineLimit"];
}

/** What a run driver does through: the same operations a client's requests use. */
export function runOperations(o: RunOperationsOptions): RunCollaborators {
  const { store, secrets, log, sessions, executions, steps, quotas, alerts } = o;
  return {
    store,
    secrets,
    log,
    createSession: (body, options) => quotas.createRunSession(body, options),
    deleteSession: (id) => sessions.delete(id),
    cancelSteps: (ids, reason) => steps.cancelExecutions(ids, reason),
    createExecution: (sessionId, body, options) => executions.create(sessionId, body, options),
    startStep: (kind, execId) => quotas.startRunStep(kind, execId),
    waitForStep: (attempt) => steps.wait(attempt),
    costsOf: o.costsOf,
    machineLimit: o.machineLimit,
    // Its report is built once now, while nobody waits for it: a final one is then kept.
    onEnded: (run) =>
      void o.report(run.plan_id, run.id).catch((e: Error) => log(`the report of plan run ${run.id} could not be made: ${e.message}`, { level: "warn" })),
    // The webhooks' schedule_failed, and whoever embeds the engine.
    onScheduledRunFailed: async (run, plan) => {
      await alerts.onScheduledRunFailed(run, plan);
      await o.onScheduledRunFailed?.(run, planView(plan));
    },
  };
}
