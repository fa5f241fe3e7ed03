import { Alerts } from "./alerts/alerts.js";
import { WebhookDeliverer } from "./alerts/webhook-deliverer.js";
import { Webhooks } from "./alerts/webhooks.js";
import { BenchmarkDefinitions } from "./benchmarks/benchmark-definitions.js";
import { Benchmarks } from "./benchmarks/benchmarks.js";
import { ProviderConfigs } from "./provider-configs/provider-configs.js";
import { machineLimit } from "./plan-runs/machine-limit.js";
import { Ingests } from "./ingest/ingests.js";
import { Gates } from "./gate/gate.js";
import type { EngineResources } from "./engine-resources.js";
import { DEFAULT_MAX_STEP_TIMEOUT_S, type EngineOptions } from "./engine-options.js";
import { Costs } from "./cost/costs.js";
import { Executions } from "./executions/executions.js";
import { logStoreFor } from "./logs/index.js";
import { SessionMachines } from "./machines/session-machines.js";
import { PlanRuns } from "./plan-runs/plan-runs.js";
import { RunDriver } from "./plan-runs/run-driver.js";
import { runOperations } from "./plan-runs/run-operations.js";
import { Plans } from "./plans/plans.js";
import { PlanReports } from "./plans/report/plan-reports.js";
import { reportIsFinal } from "./plans/report/run-finality.js";
import { Quotas } from "./quotas/quotas.js";
import { ReadCache } from "./read-cache.js";
import { Scheduler } from "./schedules/scheduler.js";
import { ChangeChecker, type OnChange } from "./series/change-checker.js";
import { SeriesBook } from "./series/series-book.js";
import { Sessions } from "./sessions/sessions.js";
import { Steps } from "./steps/steps.js";
import { Sweep } from "./sweep/sweep.js";
import { Tokens } from "./tokens/tokens.js";
import { BenchmarkDefinitionsRepository } from "./store/benchmark-definitions-repository.js";

/** Every module of an engine, each given its collaborators: what the facade hands its work to. */
export type EngineParts = ReturnType<typeof wireEngine>;

/** Builds the engine's modules on what `openEngineResources` opened, and connects them. */
export function wireEngine(options: EngineOptions, { store, catalogs, secrets, access, queue, log }: EngineResources) {
  const logs = logStoreFor(store.db, options.dataDir);
  const machines = new SessionMachines({
    store,
    secrets,
    access,
    dataDir: options.dataDir,
    log,
    providers: options.providers,
    outbound: options.outbound,
  });
  const steps = new Steps({
    store,
    catalog: (execution) => catalogs.forExecution(execution),
    pinCatalog: (execution) => catalogs.pin(execution),
    access,
    machines,
    queue,
    logs,
    dataDir: options.dataDir,
    derive: (purpose) => secrets.derive(purpose),
    log,
    work: options.work,
    worker: options.worker,
  });
  const providerConfigStore = new ProviderConfigs({ db: store.db, secrets, configDir: options.configDir, log, builtinLocal: options.builtinLocal });
  const providerConfigs = () => providerConfigStore.configs();
  // One for sessions and executions: a session's view holds its executions'.
  const reads = new ReadCache(() => store.db.writes ?? store.db.commits, ["sessions", "executions", "steps"]);
  const maxStepTimeoutS = options.maxStepTimeoutS ?? DEFAULT_MAX_STEP_TIMEOUT_S;
  const costs = new Costs({ store, machines, log });
  const sessions = new Sessions({ store, secrets, machines, reads, providerConfigs, steps, log, maxStepTimeoutS, costs });
  const executions = new Executions({ store, catalogs, reads, costs });
  const quotas = new Quotas({ store, sessions, steps, limits: options.quotas });
  const plans: Plans = new Plans({
    store,
    catalogs,
    secrets,
    providerConfigs,
    maxStepTimeoutS,
    scheduleMinIntervalMs: options.scheduler?.minIntervalMs,
    scheduleClock: options.scheduler?.clock,
    onScheduled: () => scheduler.wake(),
    costsOf: (ids: string[]) => executions.comparedRows(ids).then((rows) => costs.of(rows)),
  });
  const planReports: PlanReports = new PlanReports({
    loadRun: async (planId, runId) => {
      const [plan, run] = await Promise.all([plans.get(planId), planRuns.get(planId, runId)]);
      return { plan, cells: run.cells, final: await reportIsFinal(plan, run, (ids) => costs.settled(ids)) };
    },
    comparedRows: (ids) => executions.comparedRows(ids),
    // The rows the report reads hold what a cost needs: no second read of the executions.
    costs: (rows) => costs.of(rows),
    planExists: async (planId) => Boolean(await store.plans.get(planId)),
  });
  const webhookDeliverer = new WebhookDeliverer({ ...options.webhooks, store, secrets, log, soleProcess: store.db.kind === "pglite" });
  const alerts = new Alerts({ store, log, wake: () => webhookDeliverer.wake() });
  const report = (planId: string, runId: string) => planReports.report(planId, runId);
  const runOptions = {
    store,
    secrets,
    log,
    sessions,
    executions,
    steps,
    quotas,
    alerts,
    report,
    onScheduledRunFailed: options.onScheduledRunFailed,
    costsOf: (ids: string[]) => executions.comparedRows(ids).then((rows) => costs.of(rows)),
    machineLimit: (sessionId: string) => machineLimit(store, machines, sessionId),
  };
  const runDriver = new RunDriver(runOperations(runOptions), options.worker);
  const planRuns = new PlanRuns(store, () => runDriver.wake());
  const scheduler = new Scheduler({ store, planRuns, log }, options.scheduler);
  // A change is told to the webhooks, and to whoever embeds the engine.
  const onChange: OnChange = async (change, context) => {
    await alerts.onChange(change, context);
    await options.onChange?.(change, context);
  };
  const changeChecker = new ChangeChecker({ store, log, onChange }, options.changeChecker);
  // A run that ended here appended its points: check them now rather than at the next interval.
  steps.onEnded((ended) => {
    if (ended.step === "run" && ended.outcome === "succeeded") void changeChecker.wake();
  });
  return {
    store,
    access,
    queue,
    log,
    logs,
    machines,
    steps,
    costs,
    sessions,
    executions,
    quotas,
    plans,
    planReports,
    planRuns,
    runDriver,
    scheduler,
    alerts,
    webhookDeliverer,
    changeChecker,
    benchmarks: new Benchmarks({ catalogs }),
    benchmarkDefinitions: new BenchmarkDefinitions({ catalogs, rows: new BenchmarkDefinitionsRepository(store.db), log }),
    providerConfigs: providerConfigStore,
    ingests: new Ingests(store, () => void changeChecker.wake()),
    gates: new Gates(store),
    sweeps: new Sweep({ store, machines, providerConfigs, log }),
    webhooks: new Webhooks({ store, secrets, policy: { allowPrivate: options.webhooks?.allowPrivate === true } }),
    series: new SeriesBook(store),
    tokens: new Tokens(store.tokens),
  };
}
