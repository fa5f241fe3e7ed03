import type {
  AuditEntry,
  Benchmark,
  Change,
  Series,
  SeriesBaselineSet,
  SeriesPoint,
  Ingest,
  IngestCreate,
  Gate,
  GateCreate,
  Execution,
  ExecutionCreate,
  PlanCreate,
  Provider as ProviderView,
  ProviderConfiguration,
  Session,
  SessionCreate,
  SessionUpdate,
  StepAttempt,
  StepResult,
  SweepReport,
  SweepRequest,
  WebhookCreate,
} from "@benchwright/contract";
import { Alerts } from "./alerts/alerts.js";
import { WebhookDeliverer } from "./alerts/webhook-deliverer.js";
import { Webhooks, type DeliveryView, type WebhookView } from "./alerts/webhooks.js";
import type { AlertEvent } from "./model/webhooks.js";
import type { SeqPageQuery } from "./lists/list-query.js";
import { Benchmarks } from "./benchmarks/benchmarks.js";
import { ProviderConfigs } from "./provider-configs/provider-configs.js";
import { BenchwrightError } from "./errors.js";
import { openEngineResources, type EngineResources } from "./engine-resources.js";
import type { EngineLog } from "./engine-log.js";
import { DEFAULT_MAX_STEP_TIMEOUT_S, type EngineOptions } from "./engine-options.js";
import { Costs, type CostQuery, type CostSummary } from "./cost/costs.js";
import { machineLimit } from "./plan-runs/machine-limit.js";
import { Executions } from "./executions/executions.js";
import { executionTelemetry, type TelemetryAnswer, type TelemetryFormat } from "./executions/execution-telemetry.js";
import { logStoreFor, openStepLog, type LogStore, type StepLogView } from "./logs/index.js";
import type { MachineAccess } from "./machines/machine-access.js";
import type { StepQueue } from "./queue/step-queue.js";
import type { EventLog } from "./events/event-log.js";
import type { Store } from "./store/store.js";
import type { LiveResourceCount } from "./model/resources.js";
import type { StepKind } from "./model/steps.js";
import { Steps, type StepEnded } from "./steps/steps.js";
import { SessionMachines } from "./machines/session-machines.js";
import { ReadCache } from "./read-cache.js";
import {
  type AuditListQuery,
  auditWhereOf,
  type ExecutionListQuery,
  type MetricsExportQuery,
  type Page,
  pageOf,
  type PlanListQuery,
  type SessionListQuery,
  type Visibility,
} from "./lists/list-query.js";
import { auditCursor } from "./lists/cursor.js";
import type { AuditRecord } from "./model/audit.js";
import type { RequestTake } from "./store/request-buckets-repository.js";
import { auditEntryView } from "./views/audit-view.js";
import type { MetricRow } from "./lists/metric-rows.js";
import type { Comparison } from "./results/comparison.js";
import type { PlanView } from "./model/plans.js";
import { PlanRuns } from "./plan-runs/plan-runs.js";
import type { PlanRunView } from "./plan-runs/run-view.js";
import { RunDriver } from "./plan-runs/run-driver.js";
import { Plans, planView } from "./plans/plans.js";
import { Scheduler } from "./schedules/scheduler.js";
import { PlanReports, type RenderedReport, type ReportFormat } from "./plans/report/plan-reports.js";
import { Sessions } from "./sessions/sessions.js";
import { Sweep } from "./sweep/sweep.js";
import type { RoundTrips } from "./transport/round-trips.js";
import { ChangeChecker, type OnChange } from "./series/change-checker.js";
import { type ChangeListQuery, SeriesBook, type SeriesListQuery } from "./series/series-book.js";
import { Ingests } from "./ingest/ingests.js";
import { Gates } from "./gate/gate.js";

/** See Engine.stats. */
export interface EngineStats {
  /** Steps this process follows now. */
  stepsRunning: number;
  /** Step jobs sent and not yet taken: pg-boss's queue on PostgreSQL (shared), this process's own on the embedded default. */
  queue: { kind: StepQueue["kind"]; depth: number | undefined };
  /** SSH connections of this process's pool alive now. */
  sshConnectionsOpen: number;
  /** Channels opened, commands run and SFTP operations asked of SSH hosts since the process started. */
  sshRoundTrips: RoundTrips;
  /** Cloud resources the ledger holds as not destroyed, over every process sharing the database. */
  liveResources: LiveResourceCount[] | undefined;
}

/** How long a principal at its session quota is told to wait: a session is deleted by its owner, not by time. */
const SESSION_QUOTA_RETRY_S = 60;
/** How long a principal at its quota of steps is told to wait: about the shortest step. */
const STEP_QUOTA_RETRY_S = 5;

function quotaExceeded(detail: string, retryAfter: number): BenchwrightError {
  return new BenchwrightError("quota_exceeded", detail, { retry_after: retryAfter });
}

/**
 * The domain behind the REST interface: one method per operation, no HTTP in it. Each method
 * hands its work to the module that owns it (benchmarks/, sessions/, executions/, plans/, sweep/, the steps).
 */
export class Engine {
  readonly store: Store<EventLog>;
  private readonly access: MachineAccess;
  private readonly queue: StepQueue;
  private readonly log: EngineLog;
  private readonly benchmarks: Benchmarks;
  private readonly providerConfigs: ProviderConfigs;
  private readonly sessions: Sessions;
  private readonly executions: Executions;
  private readonly plans: Plans;
  private readonly planRuns: PlanRuns;
  private readonly runDriver: RunDriver;
  private readonly scheduler: Scheduler;
  private readonly planReports: PlanReports;
  private readonly sweeps: Sweep;
  private readonly steps: Steps;
  private readonly logs: LogStore;
  private readonly machines: SessionMachines;
  private readonly costs: Costs;
  /** Where the engine's parts report what webhooks are told of (see alerts/alerts.ts). */
  readonly alerts: Alerts;
  private readonly webhooks: Webhooks;
  private readonly webhookDeliverer: WebhookDeliverer;
  private readonly changeChecker: ChangeChecker;
  private readonly series: SeriesBook;
  private resuming: Promise<void> = Promise.resolve();
  private closing = false;

  private constructor(options: EngineOptions, { store, catalogs, secrets, access, queue, log }: EngineResources) {
    this.store = store;
    this.access = access;
    this.queue = queue;
    this.log = log;
    this.logs = logStoreFor(store.db, options.dataDir);
    this.machines = new SessionMachines({
      store,
      secrets,
      access,
      dataDir: options.dataDir,
      log,
      providers: options.providers,
      outbound: options.outbound,
    });
    this.steps = new Steps({
      store,
      catalog: () => catalogs.current(),
      access,
      machines: this.machines,
      queue,
      logs: this.logs,
      dataDir: options.dataDir,
      derive: (purpose) => secrets.derive(purpose),
      log,
      work: options.work,
      worker: options.worker,
    });
    this.providerConfigs = new ProviderConfigs({ db: store.db, secrets, configDir: options.configDir, log, builtinLocal: options.builtinLocal });
    const providerConfigs = () => this.providerConfigs.configs();
    // One for sessions and executions: a session's view holds its executions'.
    const reads = new ReadCache(() => store.db.writes ?? store.db.commits, ["sessions", "executions", "steps"]);
    const maxStepTimeoutS = options.maxStepTimeoutS ?? DEFAULT_MAX_STEP_TIMEOUT_S;
    this.benchmarks = new Benchmarks({ catalogs });
    this.costs = new Costs({ store, machines: this.machines, log });
    this.sessions = new Sessions({
      store,
      secrets,
      machines: this.machines,
      reads,
      providerConfigs,
      steps: this.steps,
      log,
      maxStepTimeoutS,
      costs: this.costs,
    });
    this.executions = new Executions({ store, catalogs, reads, costs: this.costs });
    this.plans = new Plans({
      store,
      catalogs,
      secrets,
      providerConfigs,
      maxStepTimeoutS,
      scheduleMinIntervalMs: options.scheduler?.minIntervalMs,
      scheduleClock: options.scheduler?.clock,
      onScheduled: () => this.scheduler.wake(),
    });
    this.planReports = new PlanReports({
      loadRun: async (planId, runId) => {
        const [plan, run] = await Promise.all([this.plans.get(planId), this.planRuns.get(planId, runId)]);
        // Ended, its sessions deleted and their priced machines destroyed: its figures and costs are settled.
        const final =
          ["completed", "failed", "cancelled"].includes(run.state) &&
          (run.state === "cancelled" || !plan.keep_sessions) &&
          (await this.costs.settled(Object.values(run.sessions)));
        return { plan, cells: run.cells, final };
      },
      comparedRows: (ids) => this.executions.comparedRows(ids),
      // The rows the report reads hold what a cost needs: no second read of the executions.
      costs: (rows) => this.costs.of(rows),
      planExists: async (planId) => Boolean(await store.getPlan(planId)),
    });
    this.sweeps = new Sweep({ store, machines: this.machines, providerConfigs, log });
    // Runs are driven through the same operations a client's requests use.
    this.runDriver = new RunDriver(
      {
        store,
        secrets,
        log,
        // Within the run's starter's quotas, as its own requests would be: a run over them waits (see driveCell, openTarget).
        createSession: (body, o) =>
          options.quotas?.sessions === undefined ? this.sessions.create(body, o) : this.createSessionWithinQuota(o.owner, options.quotas.sessions, body, o.id),
        deleteSession: (id) => this.sessions.delete(id),
        cancelSteps: (ids, reason) => this.steps.cancelExecutions(ids, reason),
        createExecution: (sessionId, body, o) => this.executions.create(sessionId, body, o),
        startStep: async (kind, execId) => {
          const maxSteps = options.quotas?.steps;
          if (maxSteps === undefined) return this.steps.start(kind, execId);
          const owner = (await store.getExecutionWithSession(execId))?.session.owner;
          return owner === undefined ? this.steps.start(kind, execId) : this.startStepWithinQuota(owner, maxSteps, kind, execId);
        },
        waitForStep: (attempt) => this.steps.wait(attempt),
        costsOf: (ids) => this.executions.comparedRows(ids).then((rows) => this.costs.of(rows)),
        machineLimit: (sessionId) => machineLimit(store, this.machines, sessionId),
        // Its report is built once now, while nobody waits for it: a final one is then kept.
        onEnded: (run) =>
          void this.planReports
            .report(run.plan_id, run.id)
            .catch((e: Error) => log(`the report of plan run ${run.id} could not be made: ${e.message}`, { level: "warn" })),
        // The webhooks' schedule_failed, and whoever embeds the engine.
        onScheduledRunFailed: async (run, plan) => {
          await this.alerts.onScheduledRunFailed(run, plan);
          await options.onScheduledRunFailed?.(run, planView(plan));
        },
      },
      options.worker,
    );
    this.planRuns = new PlanRuns(store, () => this.runDriver.wake());
    this.scheduler = new Scheduler({ store, planRuns: this.planRuns, log }, options.scheduler);
    const webhookPolicy = { allowPrivate: options.webhooks?.allowPrivate === true };
    this.webhooks = new Webhooks({ store, secrets, policy: webhookPolicy });
    this.webhookDeliverer = new WebhookDeliverer({ ...options.webhooks, store, secrets, log, soleProcess: store.db.kind === "pglite" });
    this.alerts = new Alerts({ store, log, wake: () => this.webhookDeliverer.wake() });
    // A change is told to the webhooks, and to whoever embeds the engine.
    const onChange: OnChange = async (change, context) => {
      await this.alerts.onChange(change, context);
      await options.onChange?.(change, context);
    };
    this.changeChecker = new ChangeChecker({ store, log, onChange }, options.changeChecker);
    this.series = new SeriesBook(store);
    // A run that ended here appended its points: check them now rather than at the next interval.
    this.steps.onEnded((ended) => {
      if (ended.step === "run" && ended.outcome === "succeeded") void this.changeChecker.wake();
    });
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options, await openEngineResources(options));
    engine.startWorking();
    engine.webhookDeliverer.start();
    return engine;
  }

  /**
   * Stops: takes no more steps and hands back those it follows (they go on detached on their
   * hosts, and another worker, or this one restarted, takes them up), within `deadlineMs`.
   */
  async close(deadlineMs = 10_000): Promise<void> {
    this.closing = true;
    // No tick fired once closing: a tick under way is recorded whole (its run is taken up by a driver) or not at all.
    await this.scheduler.stop();
    // The runs first: their drivers then begin no more steps, and others take them over at once.
    await this.runDriver.stop(Math.max(0, deadlineMs - 1_000));
    await this.webhookDeliverer.stop(Math.min(2_000, deadlineMs));
    await this.changeChecker.stop();
    // Refuses new steps at once; hands back those followed once an interrupted deletion is finished.
    const stepsStopped = this.steps.stop(Math.max(0, deadlineMs - 1_000));
    await this.resuming;
    await stepsStopped;
    await this.queue.stop();
    await this.access.close();
    await this.store.db.close();
  }

  /** For /readyz: the database answers, its schema is current, and the step queue delivers. */
  async ready(): Promise<{ ready: boolean; database: boolean; queue: boolean }> {
    const database = await this.store.db.query("SELECT 1").then(
      () => true,
      () => false,
    );
    const queue = this.queue.running && !this.closing;
    return { ready: database && queue, database, queue };
  }

  /** Calls `listener` as each step this process follows ends (succeeded or failed, not handed back); returns its removal. */
  onStepEnded(listener: (ended: StepEnded) => void): () => void {
    return this.steps.onEnded(listener);
  }

  /**
   * What this process holds now, read when metrics are scraped. A figure that needs the
   * database is left out while it does not answer: the others still tell something.
   */
  async stats(): Promise<EngineStats> {
    const [queueDepth, liveResources] = await Promise.all([this.queue.depth().catch(() => undefined), this.store.liveResourceCounts().catch(() => undefined)]);
    return {
      stepsRunning: this.steps.running,
      queue: { kind: this.queue.kind, depth: queueDepth },
      sshConnectionsOpen: this.access.sshConnectionsOpen,
      sshRoundTrips: this.access.sshRoundTrips,
      liveResources,
    };
  }

  // ---- benchmarks and providers

  listBenchmarks(): Benchmark[] {
    return this.benchmarks.list();
  }

  getBenchmark(id: string): Benchmark {
    return this.benchmarks.get(id);
  }

  listProviders(): Promise<ProviderView[]> {
    return this.providerConfigs.list();
  }

  /** One configuration, its credentials masked (see provider-configs/). */
  getProvider(name: string): Promise<ProviderConfiguration> {
    return this.providerConfigs.get(name);
  }

  /** Creates or replaces a configuration written through the API, checked as a file is, sealed. */
  putProvider(name: string, document: Record<string, unknown>, by?: string): Promise<{ view: ProviderConfiguration; created: boolean }> {
    return this.providerConfigs.put(name, document, by);
  }

  /** Deletes a configuration written through the API that no live session uses. */
  deleteProvider(name: string, by?: string): Promise<void> {
    return this.providerConfigs.delete(name, by);
  }

  /** Logs which provider configurations there are and from where; answers them (none: the caller warns). */
  async announceProviders(): Promise<ProviderView[]> {
    await this.providerConfigs.announce();
    return this.providerConfigs.list();
  }

  // ---- sessions

  /** A session of `owner` (the principal that asks; the bootstrap token's when none is said). */
  createSession(body: SessionCreate, owner?: string): Promise<Session> {
    return this.sessions.create(body, { owner });
  }

  /** Shares the session with every principal, or stops sharing it. */
  updateSession(id: string, update: SessionUpdate): Promise<Session> {
    return this.sessions.update(id, update);
  }

  /** The sessions that match the query's filters, the live ones unless its `state` says otherwise (a page of them with its `limit`), oldest first. */
  listSessions(query: SessionListQuery = {}): Promise<Page<Session>> {
    return this.sessions.list(query);
  }

  /** A session in any state: a deleted one's record outlives it, as its executions' results do. */
  getSession(id: string): Promise<Session> {
    return this.sessions.get(id);
  }

  /** Stops its running steps, removes its work dirs, destroys what its provider created. */
  deleteSession(id: string): Promise<void> {
    return this.sessions.delete(id);
  }

  // ---- executions

  createExecution(sessionId: string, body: ExecutionCreate): Promise<Execution> {
    return this.executions.create(sessionId, body);
  }

  /** Every execution, or those of a session, deleted or not (a page of those that match the query), in creation order. */
  listExecutions(sessionId?: string, query: ExecutionListQuery = {}): Promise<Page<Execution>> {
    return this.executions.list(sessionId, query);
  }

  /** The metric figures of the executions that match the filters, a batch at a time (see Executions.exportMetrics). */
  exportMetrics(query: MetricsExportQuery = {}): AsyncGenerator<MetricRow[], void, undefined> {
    return this.executions.exportMetrics(query);
  }

  /** An execution of any session, deleted or not, with its steps and metrics. */
  getExecution(id: string): Promise<Execution> {
    return this.executions.get(id);
  }

  /**
   * What executions cost (those of `sessionIds`, and `executionIds`), each and in all per
   * currency, from their service types' `price_per_hour`: see cost/costs.ts and results/cost.ts.
   */
  costOf(query: CostQuery): Promise<CostSummary> {
    return this.costs.costOf(query);
  }

  /** What the machines' samplers saw during a run attempt (the last by default), as JSON or CSV. */
  executionTelemetry(id: string, query: { attempt?: number; format?: TelemetryFormat } = {}): Promise<TelemetryAnswer> {
    return executionTelemetry(this.store, id, query.attempt, query.format ?? "json");
  }

  /** Compares executions metric by metric with a baseline (the first by default): see results/comparison.ts. */
  compareExecutions(query: {
    ids: string[];
    baseline?: string;
    confidence?: number;
    minDifference?: number;
    margin?: number;
    warmup?: number | "auto";
  }): Promise<Comparison> {
    return this.executions.compare(query);
  }

  /** Runs the prepare step and answers when it ends; see `startStep` for an answer at once. */
  async prepare(execId: string): Promise<StepResult> {
    return this.waitForStep(await this.startStep("prepare", execId));
  }

  async run(execId: string): Promise<StepResult> {
    return this.waitForStep(await this.startStep("run", execId));
  }

  /** Begins a step and hands it to the workers; returns the attempt, which goes on whoever asked. */
  async startStep(kind: StepKind, execId: string): Promise<StepAttempt> {
    return this.steps.start(kind, execId);
  }

  /**
   * Cancels the execution's running prepare or run, wherever it runs (see Steps.cancel): the
   * execution as it is then, and whether its step has ended (else it ends once its follower
   * sees the request). `requestId`: the request that asked, named in the step's error.
   */
  async cancelExecution(execId: string, by: { requestId?: string } = {}): Promise<{ execution: Execution; ended: boolean }> {
    const ended = await this.steps.cancel(execId, by);
    return { execution: await this.executions.get(execId), ended };
  }

  /** One step attempt of an execution. */
  async getStep(execId: string, kind: StepKind, attempt: number): Promise<StepAttempt> {
    return this.steps.get(execId, kind, attempt);
  }

  /** Waits until the attempt has ended (wherever it ran) and answers as the synchronous operation does. */
  async waitForStep(attempt: Pick<StepAttempt, "execution_id" | "step" | "attempt">): Promise<StepResult> {
    return this.steps.wait(attempt);
  }

  /** The log of one step attempt (the last one by default): its size, ranges of it, and a follower. */
  async openLog(execId: string, select: { step?: StepKind; attempt?: number }): Promise<StepLogView> {
    await this.executions.row(execId);
    return openStepLog(this.store, this.logs, execId, select);
  }

  // ---- plans

  /** Checks and expands a plan (every problem in one 400) and stores it, unless `dryRun`. */
  createPlan(body: PlanCreate, options: { dryRun?: boolean; createdBy?: string } = {}): Promise<PlanView> {
    return this.plans.create(body, options);
  }

  /** The stored plans, oldest first (a page of them with the query's `limit`). */
  listPlans(query: PlanListQuery = {}): Promise<Page<PlanView>> {
    return this.plans.list(query);
  }

  /** A stored plan, as its creation checked and expanded it. */
  getPlan(id: string): Promise<PlanView> {
    return this.plans.get(id);
  }

  /** Pauses the plan's schedule (wrong_state without one): no tick fires until it is resumed. */
  pausePlan(id: string): Promise<PlanView> {
    return this.plans.pause(id);
  }

  /** Resumes the plan's schedule (wrong_state without one) from now: ticks while paused are not caught up. */
  resumePlan(id: string): Promise<PlanView> {
    return this.plans.resume(id);
  }

  /** Forgets a plan: it is no longer listed or read. A plan with a run not ended is refused (wrong_state). */
  deletePlan(id: string): Promise<void> {
    return this.plans.delete(id);
  }

  // ---- plan runs

  /** Records a run of the plan, `pending`; a driver (in this process or another) takes it up. */
  /** Starts a run of the plan, its sessions `startedBy`'s (the principal who asked; `bootstrap` by default) and shared. */
  startPlanRun(planId: string, options: { startedBy?: string } = {}): Promise<PlanRunView> {
    return this.planRuns.start(planId, options);
  }

  /** The plan's runs, oldest first (a page of them with the query's `limit`). */
  listPlanRuns(planId: string, query: PlanListQuery = {}): Promise<Page<PlanRunView>> {
    return this.planRuns.list(planId, query);
  }

  getPlanRun(planId: string, runId: string): Promise<PlanRunView> {
    return this.planRuns.get(planId, runId);
  }

  /** Asks the run to stop: its steps are stopped and its sessions deleted; its results stay. */
  cancelPlanRun(planId: string, runId: string): Promise<PlanRunView> {
    return this.planRuns.cancel(planId, runId);
  }

  // ---- reports

  /** The report of a plan's run as JSON (a `PlanReport`), CSV, JSON Lines or one HTML page: see plans/report/. */
  planReport(planId: string, runId: string, format: ReportFormat = "json"): Promise<RenderedReport> {
    return this.planReports.report(planId, runId, format);
  }

  // ---- webhooks

  /** Checks the URL (see alerts/webhook-url.ts) and stores the webhook; its signing secret is in this answer only. */
  createWebhook(body: WebhookCreate): Promise<WebhookView> {
    return this.webhooks.create(body);
  }

  /** The webhooks, oldest first (a page of them with the query's `limit`). */
  listWebhooks(query: SeqPageQuery = {}): Promise<Page<WebhookView>> {
    return this.webhooks.list(query);
  }

  getWebhook(id: string): Promise<WebhookView> {
    return this.webhooks.get(id);
  }

  /** Forgets the webhook and its deliveries. */
  deleteWebhook(id: string): Promise<void> {
    return this.webhooks.delete(id);
  }

  /** The webhook's deliveries and how each went, newest first (a page of them with the query's `limit`). */
  listWebhookDeliveries(id: string, query: SeqPageQuery = {}): Promise<Page<DeliveryView>> {
    return this.webhooks.deliveries(id, query);
  }

  /** One delivery per webhook that wants the event, once per event key (see Alerts.enqueue). */
  enqueueAlert(event: AlertEvent, eventKey: string, planId: string | null, payload: Record<string, unknown>): Promise<number> {
    return this.alerts.enqueue(event, eventKey, planId, payload);
  }

  // ---- the audit log and the rate limit (the server decides what is recorded and limited)

  /** Appends one state-changing request to the audit log. */
  recordAudit(entry: AuditRecord): Promise<void> {
    return this.store.audit.append(entry);
  }

  /** The audit log's entries that match the query's filters, newest first (a page of them with its `limit`). */
  async listAudit(query: AuditListQuery = {}): Promise<Page<AuditEntry>> {
    const where = auditWhereOf(query);
    const page = pageOf(await this.store.audit.page(where), query.limit, (last) => auditCursor(last.seq));
    return { items: page.items.map(auditEntryView), next: page.next };
  }

  /**
   * Takes one request from `principal`'s token bucket (refilled at `rate` a second, up to
   * `burst`), shared by every server on the database.
   */
  takeRequestToken(principal: string, rate: number, burst: number): Promise<RequestTake> {
    return this.store.requestBuckets.take(principal, rate, burst);
  }

  /**
   * Creates a session for `principal` unless it has `maxLive` live sessions already (a 429
   * `quota_exceeded`). Every server on the database checks and creates under one lock per
   * principal, so two at once cannot both take the last place.
   */
  createSessionWithinQuota(principal: string, maxLive: number, body: SessionCreate, id?: string): Promise<Session> {
    return this.store.db.exclusive(`quota:${principal}`, async () => {
      const live = await this.store.quotas.liveSessions(principal);
      if (live >= maxLive) throw quotaExceeded(`${principal} has ${live} live sessions, as many as it may; delete one first`, SESSION_QUOTA_RETRY_S);
      // Made within the lock, with its owner: the next creation's count includes it.
      return this.sessions.create(body, { owner: principal, id });
    });
  }

  /**
   * Begins a step unless `principal`'s sessions have `maxSteps` executions preparing or running
   * already (a 429 `quota_exceeded`), checked and begun under the principal's lock.
   */
  startStepWithinQuota(principal: string, maxSteps: number, kind: StepKind, execId: string): Promise<StepAttempt> {
    return this.store.db.exclusive(`quota:${principal}`, async () => {
      const underWay = await this.store.quotas.stepsUnderWay(principal);
      if (underWay >= maxSteps) throw quotaExceeded(`${principal} has ${underWay} steps under way, as many as it may at once`, STEP_QUOTA_RETRY_S);
      return this.steps.start(kind, execId);
    });
  }

  // ---- series over time and the changes found in them

  /**
   * The series (one metric of one benchmark on one target over time), oldest first (a page with
   * `limit`). With `visible_to`, and in each read below, only what that principal may read (see SeriesBook).
   */
  listSeries(query: SeriesListQuery = {}): Promise<Page<Series>> {
    return this.series.list(query);
  }
  getSeries(id: string, visibility: Visibility = {}): Promise<Series> {
    return this.series.get(id, visibility);
  }
  /** A series' points, oldest first. */
  listSeriesPoints(id: string, query: { limit?: number; cursor?: string; branch?: string } = {}, visibility: Visibility = {}): Promise<Page<SeriesPoint>> {
    return this.series.points(id, query, visibility);
  }
  /** Pins a series' baseline: its latest level is then compared with those points. */
  setSeriesBaseline(id: string, body: SeriesBaselineSet): Promise<Series> {
    return this.series.setBaseline(id, body);
  }
  clearSeriesBaseline(id: string): Promise<void> {
    return this.series.clearBaseline(id);
  }
  listSeriesChanges(id: string, query: { limit?: number; cursor?: string } = {}, visibility: Visibility = {}): Promise<Page<Change>> {
    return this.series.seriesChanges(id, query, visibility);
  }
  /** The changes found in every series, in the order they were found. */
  listChanges(query: ChangeListQuery = {}): Promise<Page<Change>> {
    return this.series.changes(query);
  }
  getChange(id: string, visibility: Visibility = {}): Promise<Change> {
    return this.series.change(id, visibility);
  }
  acknowledgeChange(id: string): Promise<Change> {
    return this.series.acknowledge(id);
  }
  /** A harness's output (hyperfine, Google Benchmark...) made points of series, `owner`'s (ingest/). */
  ingest(body: IngestCreate, owner: string): Promise<Ingest> {
    return new Ingests(this.store, () => void this.changeChecker.wake()).ingest(body, owner);
  }
  /** Each point of an ingest against its series' history on a branch (gate/). */
  gate(body: GateCreate, visibility: Visibility = {}): Promise<Gate> {
    return new Gates(this.store).gate(body, visibility.visible_to);
  }

  // ---- admin

  sweep(request: Partial<SweepRequest> = {}): Promise<SweepReport> {
    return this.sweeps.run(request);
  }

  // ---- internals

  /**
   * Finishes what a stop interrupted, then starts taking steps. A DELETE cut short is finished
   * first, so that its steps are stopped rather than followed again. Steps that were running
   * went on, detached, on their machines: the worker's sweep takes those nobody holds. The
   * embedded database has one process, so every lease in it is this process's, from before.
   */
  private startWorking(): void {
    this.resuming = (async () => {
      if (this.store.db.kind === "pglite") {
        await this.store.releaseLeases();
        await this.store.planRuns.release();
      }
      await this.sessions.resumeDeletions();
      await this.steps.startWorking();
      if (!this.closing) this.runDriver.start();
      if (!this.closing) this.scheduler.start();
      if (!this.closing) this.changeChecker.start();
    })().catch((e: Error) => this.log(`cannot start taking steps: ${e.message}`, { level: "error" }));
  }
}
