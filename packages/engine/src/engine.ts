import type {
  AuditEntry,
  Benchmark,
  BenchmarkVersion,
  Change,
  Series,
  SeriesBaselineSet,
  SeriesPoint,
  Execution,
  ExecutionCreate,
  PlanCreate,
  Provider as ProviderView,
  ProviderConfiguration,
  Ingest,
  IngestCreate,
  Gate,
  GateCreate,
  Session,
  SessionCreate,
  SessionUpdate,
  StepAttempt,
  StepResult,
  SweepReport,
  SweepRequest,
  WebhookCreate,
} from "@benchwright/contract";
import type { DeliveryView, WebhookView } from "./alerts/webhooks.js";
import type { AlertEvent } from "./model/webhooks.js";
import { openEngineResources } from "./engine-resources.js";
import { EngineLifecycle, type EngineStats } from "./engine-lifecycle.js";
import type { EngineOptions } from "./engine-options.js";
import { type EngineParts, wireEngine } from "./engine-parts.js";
import type { CostQuery, CostSummary } from "./cost/costs.js";
import { executionTelemetry, type TelemetryAnswer, type TelemetryFormat } from "./executions/execution-telemetry.js";
import { openStepLog, type StepLogView } from "./logs/index.js";
import type { BwEvent, EventFilter } from "./model/events.js";
import type { StepKind } from "./model/steps.js";
import type { StepEnded } from "./steps/steps.js";
import type {
  AuditListQuery,
  ExecutionListQuery,
  MetricsExportQuery,
  Page,
  PlanListQuery,
  SeqPageQuery,
  SessionListQuery,
  Visibility,
} from "./lists/list-query.js";
import type { AuditRecord } from "./model/audit.js";
import type { Ownership } from "./store/owners-repository.js";
import type { RequestTake } from "./store/request-buckets-repository.js";
import { auditPage } from "./views/audit-view.js";
import type { MetricRow } from "./lists/metric-rows.js";
import type { Comparison } from "./results/comparison.js";
import type { CompareQuery } from "./executions/executions.js";
import type { PlanView } from "./model/plans.js";
import type { PlanRunView } from "./plan-runs/run-view.js";
import type { PlanRunStartOptions } from "./plan-runs/plan-runs.js";
import type { RenderedReport, ReportFormat } from "./plans/report/plan-reports.js";
import type { ChangeListQuery, SeriesListQuery } from "./series/series-book.js";
import type { NewToken, Tokens, TokenView } from "./tokens/tokens.js";
import { TokenWatch } from "./tokens/token-watch.js";

/**
 * The domain behind the REST interface: one method per operation, no HTTP in it. Each method
 * hands its work to the module that owns it (engine-parts.ts builds and connects them, its
 * store among them: nothing outside the engine reaches the store but through these methods).
 */
export class Engine {
  private readonly lifecycle: EngineLifecycle;

  private constructor(private readonly parts: EngineParts) {
    this.lifecycle = new EngineLifecycle(parts);
  }
  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(wireEngine(options, await openEngineResources(options)));
    engine.lifecycle.start();
    return engine;
  }
  /** Stops: takes no more steps and hands back those it follows (they go on on their hosts), within `deadlineMs`. */
  readonly close = (deadlineMs = 10_000): Promise<void> => this.lifecycle.close(deadlineMs);
  /** For /readyz: the database answers, its schema is current, and the step queue delivers. */
  readonly ready = (): Promise<{ ready: boolean; database: boolean; queue: boolean }> => this.lifecycle.ready();
  /** Calls `listener` as each step this process follows ends (succeeded or failed, not handed back); returns its removal. */
  readonly onStepEnded = (listener: (ended: StepEnded) => void): (() => void) => this.parts.steps.onEnded(listener);
  /** What this process holds now, read when metrics are scraped (a figure the database does not answer is left out). */
  readonly stats = (): Promise<EngineStats> => this.lifecycle.stats();

  // ---- benchmarks and providers

  readonly listBenchmarks = (): Promise<Benchmark[]> => this.parts.benchmarks.list();
  readonly getBenchmark = (id: string): Promise<Benchmark> => this.parts.benchmarks.get(id);
  /** A team's benchmark definition written through the API: checked as the catalog's, its next version (benchmarks/). */
  readonly putBenchmark = (id: string, document: Record<string, unknown>, by?: string): Promise<{ view: Benchmark; created: boolean }> =>
    this.parts.benchmarkDefinitions.put(id, document, by);
  readonly deleteBenchmark = (id: string, by?: string): Promise<void> => this.parts.benchmarkDefinitions.delete(id, by);
  readonly listBenchmarkVersions = (id: string): Promise<BenchmarkVersion[]> => this.parts.benchmarkDefinitions.versions(id);
  readonly getBenchmarkVersion = (id: string, version: number): Promise<BenchmarkVersion> => this.parts.benchmarkDefinitions.version(id, version);
  readonly listProviders = (): Promise<ProviderView[]> => this.parts.providerConfigs.list();
  /** One configuration, its credentials masked (see provider-configs/). */
  readonly getProvider = (name: string): Promise<ProviderConfiguration> => this.parts.providerConfigs.get(name);
  /** Creates or replaces a configuration written through the API, checked as a file is, sealed. */
  readonly putProvider = (name: string, document: Record<string, unknown>, by?: string): Promise<{ view: ProviderConfiguration; created: boolean }> =>
    this.parts.providerConfigs.put(name, document, by);
  /** Deletes a configuration written through the API that no live session uses. */
  readonly deleteProvider = (name: string, by?: string): Promise<void> => this.parts.providerConfigs.delete(name, by);
  /** Logs which provider configurations there are and from where; answers them (none: the caller warns). */
  readonly announceProviders = async (): Promise<ProviderView[]> => {
    await this.parts.providerConfigs.announce();
    return this.parts.providerConfigs.list();
  };

  // ---- sessions

  /** A session of `owner` (the principal that asks; the bootstrap token's when none is said). */
  readonly createSession = (body: SessionCreate, owner?: string): Promise<Session> => this.parts.sessions.create(body, { owner });
  /** Shares the session with every principal, or stops sharing it. */
  readonly updateSession = (id: string, update: SessionUpdate): Promise<Session> => this.parts.sessions.update(id, update);
  /** The sessions that match the query's filters, the live ones unless its `state` says otherwise (a page of them with its `limit`), oldest first. */
  readonly listSessions = (query: SessionListQuery = {}): Promise<Page<Session>> => this.parts.sessions.list(query);
  /** A session in any state: a deleted one's record outlives it, as its executions' results do. */
  readonly getSession = (id: string): Promise<Session> => this.parts.sessions.get(id);
  /** Stops its running steps, removes its work dirs, destroys what its provider created. */
  readonly deleteSession = (id: string): Promise<void> => this.parts.sessions.delete(id);

  // ---- executions

  readonly createExecution = (sessionId: string, body: ExecutionCreate): Promise<Execution> => this.parts.executions.create(sessionId, body);
  /** Every execution, or those of a session, deleted or not (a page of those that match the query), in creation order. */
  readonly listExecutions = (sessionId?: string, query: ExecutionListQuery = {}): Promise<Page<Execution>> => this.parts.executions.list(sessionId, query);
  /** The metric figures of the executions that match the filters, a batch at a time (see Executions.exportMetrics). */
  readonly exportMetrics = (query: MetricsExportQuery = {}): AsyncGenerator<MetricRow[], void, undefined> => this.parts.executions.exportMetrics(query);
  /** An execution of any session, deleted or not, with its steps and metrics. */
  readonly getExecution = (id: string): Promise<Execution> => this.parts.executions.get(id);
  /** What executions cost (of `sessionIds`, and `executionIds`), each and in all per currency: see cost/costs.ts. */
  readonly costOf = (query: CostQuery): Promise<CostSummary> => this.parts.costs.costOf(query);
  /** What the machines' samplers saw during a run attempt (the last by default), as JSON or CSV. */
  readonly executionTelemetry = (id: string, query: { attempt?: number; format?: TelemetryFormat } = {}): Promise<TelemetryAnswer> =>
    executionTelemetry(this.parts.store, id, query.attempt, query.format ?? "json");
  /** Compares executions metric by metric with a baseline (the first by default): see results/comparison.ts. */
  readonly compareExecutions = (query: CompareQuery): Promise<Comparison> => this.parts.executions.compare(query);
  /** Runs the prepare step and answers when it ends; see `startStep` for an answer at once. */
  readonly prepare = async (execId: string): Promise<StepResult> => this.waitForStep(await this.startStep("prepare", execId));
  readonly run = async (execId: string): Promise<StepResult> => this.waitForStep(await this.startStep("run", execId));
  /** Begins a step and hands it to the workers; returns the attempt, which goes on whoever asked. */
  readonly startStep = (kind: StepKind, execId: string): Promise<StepAttempt> => this.parts.steps.start(kind, execId);
  /** Cancels the execution's running step wherever it runs (see Steps.cancel): the execution then, and whether its step ended. */
  async cancelExecution(execId: string, by: { requestId?: string } = {}): Promise<{ execution: Execution; ended: boolean }> {
    const ended = await this.parts.steps.cancel(execId, by);
    return { execution: await this.parts.executions.get(execId), ended };
  }
  /** One step attempt of an execution. */
  readonly getStep = (execId: string, kind: StepKind, attempt: number): Promise<StepAttempt> => this.parts.steps.get(execId, kind, attempt);
  /** Waits until the attempt has ended (wherever it ran) and answers as the synchronous operation does. */
  readonly waitForStep = (attempt: Pick<StepAttempt, "execution_id" | "step" | "attempt">): Promise<StepResult> => this.parts.steps.wait(attempt);
  /** The log of one step attempt (the last one by default): its size, ranges of it, and a follower. */
  async openLog(execId: string, select: { step?: StepKind; attempt?: number }): Promise<StepLogView> {
    await this.parts.executions.row(execId);
    return openStepLog(this.parts.store, this.parts.logs, execId, select);
  }

  // ---- plans

  /** Checks and expands a plan (every problem in one 400) and stores it, unless `dryRun`. */
  readonly createPlan = (body: PlanCreate, options: { dryRun?: boolean; createdBy?: string } = {}): Promise<PlanView> => this.parts.plans.create(body, options);
  /** The stored plans, oldest first (a page of them with the query's `limit`). */
  readonly listPlans = (query: PlanListQuery = {}): Promise<Page<PlanView>> => this.parts.plans.list(query);
  /** A stored plan, as its creation checked and expanded it. */
  readonly getPlan = (id: string): Promise<PlanView> => this.parts.plans.get(id);
  /** Pauses the plan's schedule (wrong_state without one): no tick fires until it is resumed. */
  readonly pausePlan = (id: string): Promise<PlanView> => this.parts.plans.pause(id);
  /** Resumes the plan's schedule (wrong_state without one) from now: ticks while paused are not caught up. */
  readonly resumePlan = (id: string): Promise<PlanView> => this.parts.plans.resume(id);
  /** Forgets a plan: it is no longer listed or read. A plan with a run not ended is refused (wrong_state). */
  readonly deletePlan = (id: string): Promise<void> => this.parts.plans.delete(id);

  // ---- plan runs

  /** Starts a run of the plan, its sessions `startedBy`'s (the principal who asked; `bootstrap` by default) and shared. */
  readonly startPlanRun = (planId: string, options: PlanRunStartOptions = {}): Promise<PlanRunView> => this.parts.planRuns.start(planId, options);
  /** The plan's runs, oldest first (a page of them with the query's `limit`). */
  readonly listPlanRuns = (planId: string, query: PlanListQuery = {}): Promise<Page<PlanRunView>> => this.parts.planRuns.list(planId, query);
  readonly getPlanRun = (planId: string, runId: string): Promise<PlanRunView> => this.parts.planRuns.get(planId, runId);
  /** Asks the run to stop: its steps are stopped and its sessions deleted; its results stay. */
  readonly cancelPlanRun = (planId: string, runId: string): Promise<PlanRunView> => this.parts.planRuns.cancel(planId, runId);

  // ---- reports

  /** The report of a plan's run as JSON (a `PlanReport`), CSV, JSON Lines or one HTML page: see plans/report/. */
  readonly planReport = (planId: string, runId: string, format: ReportFormat = "json"): Promise<RenderedReport> =>
    this.parts.planReports.report(planId, runId, format);

  // ---- webhooks

  /** Checks the URL (see alerts/webhook-url.ts) and stores the webhook; its signing secret is in this answer only. */
  readonly createWebhook = (body: WebhookCreate): Promise<WebhookView> => this.parts.webhooks.create(body);
  /** The webhooks, oldest first (a page of them with the query's `limit`). */
  readonly listWebhooks = (query: SeqPageQuery = {}): Promise<Page<WebhookView>> => this.parts.webhooks.list(query);
  readonly getWebhook = (id: string): Promise<WebhookView> => this.parts.webhooks.get(id);
  /** Forgets the webhook and its deliveries. */
  readonly deleteWebhook = (id: string): Promise<void> => this.parts.webhooks.delete(id);
  /** The webhook's deliveries and how each went, newest first (a page of them with the query's `limit`). */
  readonly listWebhookDeliveries = (id: string, query: SeqPageQuery = {}): Promise<Page<DeliveryView>> => this.parts.webhooks.deliveries(id, query);
  /** One delivery per webhook that wants the event, once per event key (see Alerts.enqueue). */
  readonly enqueueAlert = (event: AlertEvent, eventKey: string, planId: string | null, payload: Record<string, unknown>): Promise<number> =>
    this.parts.alerts.enqueue(event, eventKey, planId, payload);

  // ---- the audit log and the rate limit (the server decides what is recorded and limited)

  /** Appends one state-changing request to the audit log. */
  readonly recordAudit = (entry: AuditRecord): Promise<void> => this.parts.store.audit.append(entry);
  /** The audit log's entries that match the query's filters, newest first (a page of them with its `limit`). */
  readonly listAudit = (query: AuditListQuery = {}): Promise<Page<AuditEntry>> => auditPage(this.parts.store.audit, query);
  /** Takes one request from `principal`'s token bucket (refilled at `rate` a second, up to `burst`), shared by every server. */
  readonly takeRequestToken = (principal: string, rate: number, burst: number): Promise<RequestTake> =>
    this.parts.store.requestBuckets.take(principal, rate, burst);
  /** Creates a session for `principal` unless it has `maxLive` live sessions already (a 429 `quota_exceeded`): see quotas/. */
  readonly createSessionWithinQuota = (principal: string, maxLive: number, body: SessionCreate, id?: string): Promise<Session> =>
    this.parts.quotas.createSession(principal, maxLive, body, id);
  /** Begins a step unless `principal`'s sessions have `maxSteps` steps under way already (a 429 `quota_exceeded`). */
  readonly startStepWithinQuota = (principal: string, maxSteps: number, kind: StepKind, execId: string): Promise<StepAttempt> =>
    this.parts.quotas.startStep(principal, maxSteps, kind, execId);

  // ---- API tokens, owners and the event log (the server reaches them only here)

  /** Makes a token (shown in this answer only, its SHA-256 kept); see tokens/tokens.ts. */
  readonly createToken = (request: NewToken, now?: Date): Promise<TokenView> => this.parts.tokens.create(request, now);
  readonly listTokens = (query: SeqPageQuery = {}): Promise<Page<TokenView>> => this.parts.tokens.list(query);
  readonly getToken = (id: string): Promise<TokenView> => this.parts.tokens.get(id);
  /** Revokes the token at once on every server sharing the database. */
  readonly revokeToken = (id: string): Promise<TokenView> => this.parts.tokens.revoke(id);
  /** The principal a request's bearer token names, or why it names none. */
  readonly principalOfToken = (token: string): ReturnType<Tokens["principalOf"]> => this.parts.tokens.principalOf(token);
  /** A new watch that ends what a token holds open (streams, followed logs) when it expires or is revoked. */
  readonly tokenWatch = (): TokenWatch => new TokenWatch(this.parts.store.db);
  /** Whose the session is and whether it is shared; undefined when there is no such session. */
  readonly ownerOfSession = (id: string): Promise<Ownership | undefined> => this.parts.store.owners.ofSession(id);
  readonly ownerOfExecution = (id: string): Promise<Ownership | undefined> => this.parts.store.owners.ofExecution(id);
  /** The id of the last event committed (0 when none). */
  readonly lastEventId = (): Promise<number> => this.parts.store.events.lastId();
  /** At most `limit` events that match `filter`, after the `afterId` one. */
  readonly readEvents = (filter: EventFilter, afterId: number, limit: number): Promise<BwEvent[]> => this.parts.store.events.read(filter, afterId, limit);
  /** The events that match `filter` after the `afterId` one, as they are committed, until `signal` aborts (see EventLog.subscribe). */
  readonly subscribeEvents = (filter: EventFilter, afterId: number, signal: AbortSignal): AsyncGenerator<BwEvent, void, undefined> =>
    this.parts.store.events.subscribe(filter, afterId, signal);

  // ---- series over time and the changes found in them

  /** The series, oldest first (a page with `limit`); with `visible_to`, here and below, what that principal may read. */
  readonly listSeries = (query: SeriesListQuery = {}): Promise<Page<Series>> => this.parts.series.list(query);
  readonly getSeries = (id: string, visibility: Visibility = {}): Promise<Series> => this.parts.series.get(id, visibility);
  /** A series' points, oldest first. */
  readonly listSeriesPoints = (
    id: string,
    query: { limit?: number; cursor?: string; branch?: string } = {},
    visibility: Visibility = {},
  ): Promise<Page<SeriesPoint>> => this.parts.series.points(id, query, visibility);
  /** Pins a series' baseline: its latest level is then compared with those points. */
  readonly setSeriesBaseline = (id: string, body: SeriesBaselineSet): Promise<Series> => this.parts.series.setBaseline(id, body);
  readonly clearSeriesBaseline = (id: string): Promise<void> => this.parts.series.clearBaseline(id);
  readonly listSeriesChanges = (id: string, query: { limit?: number; cursor?: string } = {}, visibility: Visibility = {}): Promise<Page<Change>> =>
    this.parts.series.seriesChanges(id, query, visibility);
  /** The changes found in every series, in the order they were found. */
  readonly listChanges = (query: ChangeListQuery = {}): Promise<Page<Change>> => this.parts.series.changes(query);
  readonly getChange = (id: string, visibility: Visibility = {}): Promise<Change> => this.parts.series.change(id, visibility);
  readonly acknowledgeChange = (id: string): Promise<Change> => this.parts.series.acknowledge(id);
  /** A harness's output (hyperfine, Google Benchmark...) made points of series, `owner`'s (ingest/). */
  readonly ingest = (body: IngestCreate, owner: string): Promise<Ingest> => this.parts.ingests.ingest(body, owner);
  /** Each point of an ingest against its series' history on a branch (gate/). */
  readonly gate = (body: GateCreate, visibility: Visibility = {}): Promise<Gate> => this.parts.gates.gate(body, visibility.visible_to);

  // ---- admin

  readonly sweep = (request: Partial<SweepRequest> = {}): Promise<SweepReport> => this.parts.sweeps.run(request);
}
