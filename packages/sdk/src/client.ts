import createFetchClient, { type Client, type HeadersOptions, type Middleware } from "openapi-fetch";
import { BenchwrightProblemError } from "./errors.js";
import { streamLog, type LogStreamOptions } from "./logs.js";
import { followEvents, type EventsOptions } from "./events.js";
import {
  followPages,
  LIST_QUERY_SERIALIZER,
  listQuery,
  readPage,
  type ExecutionFilters,
  type FollowOptions,
  type Page,
  type PageOptions,
  type SessionExecutionFilters,
  type SessionFilters,
} from "./lists.js";
import { auditQuery, type AuditFilters } from "./audit-filters.js";
import { changeQuery, pageQuery, seriesQuery, type ChangeFilters, type SeriesFilters } from "./series-filters.js";
import { exportMetricsStream, exportMetricsText, streamMetricRows, type MetricsExportOptions } from "./metric-rows.js";
import type { paths } from "./generated/schema.js";
import { type IngestsMethods, ingestsMethods } from "./resources/ingests.js";
import type {
  AuditEntry,
  Benchmark,
  BenchwrightEvent,
  Change,
  Comparison,
  Execution,
  ExecutionCreate,
  ExecutionTelemetry,
  MetricRow,
  Plan,
  PlanCreate,
  PlanReport,
  PlanRun,
  Provider,
  Series,
  SeriesBaselineSet,
  SeriesPoint,
  Session,
  SessionCreate,
  SessionUpdate,
  StepAttempt,
  StepName,
  StepResult,
  SweepReport,
  SweepRequest,
  Token,
  TokenCreate,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  Whoami,
} from "./types.js";

const API_PREFIX = "/api/v1";
/** How many records `sessions()` and `executions()` ask for at a time, unless told. */
const FOLLOW_PAGE_SIZE = 100;

export interface ClientOptions {
  /** The server root, such as `http://127.0.0.1:5000`; `/api/v1` is appended unless it is already there. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`, for a server started with BENCHWRIGHT_API_TOKEN. */
  token?: string;
  /** A fetch to use instead of `globalThis.fetch`. */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: HeadersOptions;
}

/** Options of one call. */
export interface RequestOptions {
  /** Extra headers for this call only. */
  headers?: HeadersOptions;
  signal?: AbortSignal;
}

/** Options of a call whose operation accepts a fields mask. */
export interface CallOptions extends RequestOptions {
  /** Sent as `X-Fields`: a fields mask such as `id,state` or `id,provider{id}`. */
  fields?: string;
}

/** Options of `listSessions`: its filters (without them, every session that is not deleted). */
export type ListSessionsOptions = CallOptions & SessionFilters;
/** Options of `listSessionExecutions`: its filters. */
export type ListSessionExecutionsOptions = CallOptions & SessionExecutionFilters;
/** Options of `listExecutions`: its filters (without them, every execution). */
export type ListExecutionsOptions = CallOptions & ExecutionFilters;

/** Options of `listSeriesPoints`: `branch`, the points of that branch only (those whose client named one, as ingests do). */
export type SeriesPointsOptions = CallOptions & { branch?: string };
/** Options of `listSeries`: its filters (without them, every series). */
export type ListSeriesOptions = CallOptions & SeriesFilters;
/** Options of `listAuditEntries`: its filters (without them, every entry). */
export type ListAuditEntriesOptions = CallOptions & AuditFilters;
/** Options of `listChanges`: its filters (without them, every change). */
export type ListChangesOptions = CallOptions & ChangeFilters;

/** Options of `compareExecutions`. */
export interface CompareOptions extends CallOptions {
  /** The execution the others are compared with (one of the ids; the first by default). */
  baseline?: string;
  /** The confidence level of the intervals and of the test; 0.95 by default. */
  confidence?: number;
  /** The smallest relative difference that counts (0.02: a ratio within 2% of 1 reads no_difference); 0 by default. */
  minDifference?: number;
  /** The relative difference that matters (0.02: 2%): each figure then has a `claim` (better, worse, equivalent, not_worse, not_better or inconclusive) with its sentence. */
  margin?: number;
  /** Leave out each machine's first runs as warm-up: a count, or "auto" (as many as MSER finds). */
  warmup?: number | "auto";
}

/** Options of prepare and run. */
export interface StepOptions extends CallOptions {
  /** Answer at once (`Prefer: respond-async`) with the step attempt instead of waiting for the step to end. */
  async?: boolean;
}

export interface LogOptions extends RequestOptions {
  /** Which step; the server defaults to the last step that started. */
  step?: StepName;
  /** Which attempt of the step, from 1; the server defaults to the last one. */
  attempt?: number;
}

/** The openapi-fetch client typed with the contract: it returns `{ data, error, response }` and never throws on HTTP errors. */
export type RawClient = Client<paths>;

/** Every operation of the contract. Each returns the success body, or throws {@link BenchwrightProblemError}. */
export interface BenchwrightClient extends IngestsMethods {
  readonly raw: RawClient;
  listBenchmarks(options?: CallOptions): Promise<Benchmark[]>;
  getBenchmark(benchmarkId: string, options?: CallOptions): Promise<Benchmark>;
  listProviders(options?: CallOptions): Promise<Provider[]>;
  /** The caller's principal and role (`viewer`, `operator`, `admin`): what a client may offer it. */
  whoami(options?: CallOptions): Promise<Whoami>;
  createSession(body: SessionCreate, options?: CallOptions): Promise<Session>;
  /** The sessions that match the filters (every one that is not deleted without a `state`), oldest first. */
  listSessions(options?: ListSessionsOptions): Promise<Session[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSessionsPage(options?: ListSessionsOptions & PageOptions): Promise<Page<Session>>;
  /**
   * The sessions that match the filters, page after page (`pageSize` at a time) as the loop goes.
   *
   * @example
   * for await (const s of bw.sessions({ provider: "aws" })) console.log(s.id, s.executions.length);
   */
  sessions(options?: ListSessionsOptions & FollowOptions): AsyncIterable<Session>;
  /** A session, deleted or not (`state: "deleted"` and its `deleted` time): its record and executions outlive it. */
  getSession(sessionId: string, options?: CallOptions): Promise<Session>;
  /** Shares the session (and its executions) with every principal for reading, or stops sharing it; only its owner or an admin may. */
  updateSession(sessionId: string, body: SessionUpdate, options?: CallOptions): Promise<Session>;
  /** Destroys every provider resource the session created; the executions stay readable. */
  deleteSession(sessionId: string, options?: RequestOptions): Promise<void>;
  createExecution(sessionId: string, body: ExecutionCreate, options?: CallOptions): Promise<Execution>;
  listSessionExecutions(sessionId: string, options?: ListSessionExecutionsOptions): Promise<Execution[]>;
  listSessionExecutionsPage(sessionId: string, options?: ListSessionExecutionsOptions & PageOptions): Promise<Page<Execution>>;
  /** The executions that match the filters (every one without them), oldest first. */
  listExecutions(options?: ListExecutionsOptions): Promise<Execution[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listExecutionsPage(options?: ListExecutionsOptions & PageOptions): Promise<Page<Execution>>;
  /**
   * The executions that match the filters, page after page (`pageSize` at a time) as the loop goes.
   *
   * @example
   * for await (const e of bw.executions({ tool: "sysbench", state: ["completed"] })) console.log(e.id, e.metrics);
   */
  executions(options?: ListExecutionsOptions & FollowOptions): AsyncIterable<Execution>;
  /**
   * Checks a plan (every problem in one 400) and stores it, its `service: "*"` targets expanded
   * and its size counted; with `dryRun`, answers what would be stored and stores nothing.
   */
  createPlan(body: PlanCreate, options?: CallOptions & { dryRun?: boolean }): Promise<Plan>;
  /** The stored plans, oldest first. */
  listPlans(options?: CallOptions): Promise<Plan[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listPlansPage(options?: CallOptions & PageOptions): Promise<Page<Plan>>;
  getPlan(planId: string, options?: CallOptions): Promise<Plan>;
  deletePlan(planId: string, options?: RequestOptions): Promise<void>;
  /** Pauses the plan's schedule: no tick starts a run until it is resumed (`schedule.next_run_at` null meanwhile). A plan without a schedule is a 409. */
  pausePlanSchedule(planId: string, options?: CallOptions): Promise<Plan>;
  /** Resumes the plan's schedule from now: ticks that fell while it was paused start nothing. A plan without a schedule is a 409. */
  resumePlanSchedule(planId: string, options?: CallOptions): Promise<Plan>;
  /**
   * Starts a run of the plan and answers at once with it, `pending`: the server opens the
   * targets' sessions, makes and runs each cell's execution and deletes the sessions at the end.
   * Follow it with `getPlanRun` (its `progress` and `cells`) or `events()` (`plan_run.*`).
   *
   * @example
   * let run = await bw.startPlanRun(plan.id);
   * while (run.ended === null) {
   *   await new Promise((r) => setTimeout(r, 2000));
   *   run = await bw.getPlanRun(plan.id, run.id);
   * }
   */
  startPlanRun(planId: string, options?: CallOptions): Promise<PlanRun>;
  /** The plan's runs, oldest first. */
  listPlanRuns(planId: string, options?: CallOptions): Promise<PlanRun[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listPlanRunsPage(planId: string, options?: CallOptions & PageOptions): Promise<Page<PlanRun>>;
  getPlanRun(planId: string, runId: string, options?: CallOptions): Promise<PlanRun>;
  /** Cancels the run: answers it `cancelling`; its steps are stopped, its sessions deleted, its results kept. An ended run is a 409. */
  cancelPlanRun(planId: string, runId: string, options?: CallOptions): Promise<PlanRun>;
  /**
   * The run's report: for each cell and metric every target's summary, ratio to the baseline,
   * verdict and rank; each target's geometric mean and rank; the failed cells with why.
   */
  getPlanRunReport(planId: string, runId: string, options?: CallOptions): Promise<PlanReport>;
  /** The same report as CSV or JSON Lines of its cells, or as one self-contained HTML page (charts inline, nothing fetched). */
  getPlanRunReportText(planId: string, runId: string, format: "csv" | "jsonl" | "html", options?: RequestOptions): Promise<string>;
  /**
   * Asks to be told of changes and failed scheduled runs (`events`; of one plan's with
   * `plan_id`) by a signed POST to `url`. The answer holds the webhook's `secret`, this once:
   * keep it to check each delivery's `Benchwright-Signature`.
   *
   * @example
   * const hook = await bw.createWebhook({ url: "https://hooks.example.com/benchwright", events: ["regression", "improvement"] });
   * saveSecret(hook.secret);
   */
  createWebhook(body: WebhookCreate, options?: CallOptions): Promise<Webhook>;
  /** An admin's (a webhook's URL may hold the receiver's credential): the webhooks, oldest first, without their secrets. */
  listWebhooks(options?: CallOptions): Promise<Webhook[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listWebhooksPage(options?: CallOptions & PageOptions): Promise<Page<Webhook>>;
  /** An admin's: one webhook, without its secret. */
  getWebhook(webhookId: string, options?: CallOptions): Promise<Webhook>;
  /** Deletes the webhook and its deliveries' records; what was not delivered yet is not. */
  deleteWebhook(webhookId: string, options?: RequestOptions): Promise<void>;
  /** An admin's: the webhook's deliveries and how each went (state, attempts, last status and error), newest first. */
  listWebhookDeliveries(webhookId: string, options?: CallOptions): Promise<WebhookDelivery[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listWebhookDeliveriesPage(webhookId: string, options?: CallOptions & PageOptions): Promise<Page<WebhookDelivery>>;
  /** The metric figures of the executions that match the filters, as CSV (RFC 4180) or JSON Lines text. */
  exportMetrics(options: MetricsExportOptions & { format: "csv" | "jsonl" }): Promise<string>;
  /**
   * The same text as it streams in, for a file or a pipe without holding it all: bytes of CSV
   * or JSON Lines. Cancel the stream (or abort `signal`) to stop; an error answer throws first.
   *
   * @example
   * await pipeline(Readable.fromWeb(await bw.exportMetricsStream({ format: "csv" })), createWriteStream("metrics.csv"));
   */
  exportMetricsStream(options: MetricsExportOptions & { format: "csv" | "jsonl" }): Promise<ReadableStream<Uint8Array>>;
  /**
   * The same figures, one `MetricRow` at a time as they stream in.
   *
   * @example
   * for await (const row of bw.metricRows({ tool: "fio" })) console.log(row.execution_id, row.metric, row.value, row.unit);
   */
  metricRows(options?: MetricsExportOptions): AsyncIterable<MetricRow>;
  getExecution(execId: string, options?: CallOptions): Promise<Execution>;
  /**
   * Compares executions metric by metric with a baseline (the first by default): each one's
   * figures with their confidence intervals, the ratio to the baseline and a significance verdict.
   *
   * @example
   * const c = await bw.compareExecutions([awsRun.id, gcpRun.id]);
   * for (const m of c.metrics) for (const f of m.figures) console.log(m.name, f.execution_id, f.mean, f.ratio, f.verdict);
   */
  compareExecutions(ids: string[], options?: CompareOptions): Promise<Comparison>;
  /** Resolves when the step has ended; with `async: true`, at once with the step attempt (see `waitForStep`). */
  prepare(execId: string, options: StepOptions & { async: true }): Promise<StepAttempt>;
  prepare(execId: string, options?: StepOptions): Promise<StepResult>;
  /** Resolves when the run has ended; with `async: true`, at once with the step attempt (see `waitForStep`). */
  run(execId: string, options: StepOptions & { async: true }): Promise<StepAttempt>;
  run(execId: string, options?: StepOptions): Promise<StepResult>;
  /**
   * Cancels the execution's running prepare or run (wherever it runs) and keeps the session:
   * the step ends failed (`step_cancelled`), the execution `prepare_failed` or `run_failed`,
   * ready to be prepared or run again. Resolves with the execution once the step has ended;
   * when it is stopped elsewhere and has not ended yet (a 202), with the execution as it is
   * then (`preparing` or `running`): `waitForState` follows it. Throws a 409 `no_running_step`
   * when nothing runs.
   *
   * @example
   * const execution = await bw.cancelExecution(execId);
   * if (execution.state === "running") await waitForState(bw, execId, ["run_failed", "completed"]);
   */
  cancelExecution(execId: string, options?: CallOptions): Promise<Execution>;
  /** One attempt of a step, running or ended. */
  getStep(execId: string, step: StepName, attempt: number, options?: CallOptions): Promise<StepAttempt>;
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
  /** The whole log of one step, as text. */
  getLog(execId: string, options?: LogOptions): Promise<string>;
  /**
   * A step's log as it streams in, text chunk by text chunk; with `follow: true` it goes on
   * while the step runs and ends when the attempt has ended.
   *
   * @example
   * for await (const text of bw.logs(execId, { step: "run", follow: true })) process.stdout.write(text);
   */
  logs(execId: string, options?: LogStreamOptions): AsyncIterable<string>;
  /**
   * What happens on the server, live: sessions, executions and steps changing state. It
   * reconnects by itself after a drop and resumes where it was: no event lost, none twice.
   *
   * @example
   * for await (const e of bw.events({ executionId, signal })) if (e.type === "execution.state") console.log(e.data.state);
   */
  events(options?: EventsOptions): AsyncIterable<BenchwrightEvent>;
  sweep(body?: SweepRequest, options?: CallOptions): Promise<SweepReport>;
  /**
   * The audit log (admins): every state-changing request, newest first, with who sent it, the
   * operation, the path, the status and problem code, and its request id.
   *
   * @example
   * const refused = await bw.listAuditEntries({ principal: "ci", outcome: "failure", since: "2026-11-26" });
   */
  listAuditEntries(options?: ListAuditEntriesOptions): Promise<AuditEntry[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listAuditEntriesPage(options?: ListAuditEntriesOptions & PageOptions): Promise<Page<AuditEntry>>;
  /**
   * An admin's: makes an API token for a principal, with a role (`viewer`, `operator`, `admin`) and
   * an optional expiry. The answer holds the `token`, this once; the server keeps its hash.
   *
   * @example
   * const { token } = await bw.createToken({ principal: "ci", role: "operator", expires: "2027-02-24T00:00:00Z" });
   */
  createToken(body: TokenCreate, options?: CallOptions): Promise<Token>;
  /** An admin's: every token's record (never the token), oldest first, revoked and expired ones too. */
  listTokens(options?: CallOptions): Promise<Token[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listTokensPage(options?: CallOptions & PageOptions): Promise<Page<Token>>;
  getToken(tokenId: string, options?: CallOptions): Promise<Token>;
  /** An admin's: revokes the token, at once on every server. */
  revokeToken(tokenId: string, options?: RequestOptions): Promise<void>;
  /** The series (one metric of one benchmark on one target, over time) that match the filters, oldest first. */
  listSeries(options?: ListSeriesOptions): Promise<Series[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSeriesPage(options?: ListSeriesOptions & PageOptions): Promise<Page<Series>>;
  /**
   * The series that match the filters, page after page (`pageSize` at a time) as the loop goes.
   *
   * @example
   * for await (const s of bw.series({ tool: "sysbench" })) console.log(s.metric.name, s.latest?.mean, s.open_changes);
   */
  series(options?: ListSeriesOptions & FollowOptions): AsyncIterable<Series>;
  /** A series with its latest point, its baseline and how the latest level compares with it. */
  getSeries(seriesId: string, options?: CallOptions): Promise<Series>;
  /** Every point of the series, oldest first: each run's mean of the metric, its interval and its machines' facts (`branch`: one branch's). */
  listSeriesPoints(seriesId: string, options?: SeriesPointsOptions): Promise<SeriesPoint[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSeriesPointsPage(seriesId: string, options?: SeriesPointsOptions & PageOptions): Promise<Page<SeriesPoint>>;
  /** The series' points, page after page (`pageSize` at a time) as the loop goes. */
  seriesPoints(seriesId: string, options?: SeriesPointsOptions & FollowOptions): AsyncIterable<SeriesPoint>;
  /**
   * Pins the series' baseline to a point, or a range of points (`to` is `from` by default): the
   * series then compares its latest level with it (`latest_vs_baseline`). A point the series does not have is a 400.
   *
   * @example
   * const s = await bw.setSeriesBaseline(seriesId, { from: 1, to: 5 });
   * console.log(s.latest_vs_baseline?.size, s.latest_vs_baseline?.direction);
   */
  setSeriesBaseline(seriesId: string, body: SeriesBaselineSet, options?: CallOptions): Promise<Series>;
  /** Forgets the series' baseline (whether it had one or not). */
  clearSeriesBaseline(seriesId: string, options?: RequestOptions): Promise<void>;
  /** The changes found in the series, in the order of their points. */
  listSeriesChanges(seriesId: string, options?: CallOptions): Promise<Change[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSeriesChangesPage(seriesId: string, options?: CallOptions & PageOptions): Promise<Page<Change>>;
  /**
   * The changes found in every series that match the filters, newest first.
   *
   * @example
   * const open = await bw.listChanges({ direction: "regression", state: "open" });
   * for (const c of open) console.log(c.series.metric.name, c.size, c.facts_changed.map((f) => f.fact));
   */
  listChanges(options?: ListChangesOptions): Promise<Change[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listChangesPage(options?: ListChangesOptions & PageOptions): Promise<Page<Change>>;
  /** The changes that match the filters, page after page (`pageSize` at a time) as the loop goes. */
  changes(options?: ListChangesOptions & FollowOptions): AsyncIterable<Change>;
  getChange(changeId: string, options?: CallOptions): Promise<Change>;
  /** Marks the change as seen (`acknowledged`, no longer open); an acknowledged change is answered again. */
  acknowledgeChange(changeId: string, options?: CallOptions): Promise<Change>;
}

function apiBaseUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, "");
  return root.endsWith(API_PREFIX) ? root : root + API_PREFIX;
}

function bearerAuth(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("Authorization", `Bearer ${token}`);
      return request;
    },
  };
}

/**
 * The contract describes each answer an `X-Fields` mask can cut down as `anyOf: [Whole, Masked]`
 * (so that a masked answer is no contract violation), and the raw client's types say so. The
 * typed methods give the whole record, whose fields are not optional: that is what the server
 * answers when no mask is sent. `T` is the whole type, taken from the method's declared result
 * (hence `NoInfer`), and the raw answer is checked against it.
 */
async function unwrap<T>(pending: Promise<{ data?: NoInfer<T> | Masked<NoInfer<T>>; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  return data as T;
}

/** What a mask can leave of a value: any of its fields, at any depth. */
type Masked<T> = T extends readonly (infer E)[] ? Masked<E>[] : T extends object ? { [K in keyof T]?: Masked<T[K]> } : T;

function init(options: RequestOptions | undefined) {
  return { headers: options?.headers, signal: options?.signal };
}

function fieldsHeader(options: CallOptions | undefined) {
  return options?.fields === undefined ? undefined : { "X-Fields": options.fields };
}

function stepHeaders(options: StepOptions | undefined) {
  const headers: { "X-Fields"?: string; Prefer?: string } = { ...fieldsHeader(options) };
  if (options?.async) headers.Prefer = "respond-async";
  return headers;
}

/**
 * @example
 * const bw = createClient({ baseUrl: "http://127.0.0.1:5000", token: process.env.BENCHWRIGHT_API_TOKEN });
 * const session = await bw.createSession({ provider: "local", service: "default" });
 */
export function createClient(options: ClientOptions): BenchwrightClient {
  const raw = createFetchClient<paths>({
    baseUrl: apiBaseUrl(options.baseUrl),
    fetch: options.fetch,
    headers: options.headers,
  });
  if (options.token !== undefined) raw.use(bearerAuth(options.token));

  // The lists answer the seed's plain arrays; a page's next cursor comes in a header.
  const listInit = (o: CallOptions | undefined) => ({ querySerializer: LIST_QUERY_SERIALIZER, ...init(o) });
  const sessionsPage = (o?: ListSessionsOptions & PageOptions) =>
    readPage<Session>(raw.GET("/sessions/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  const sessionExecutionsPage = (sessionId: string, o?: ListSessionExecutionsOptions & PageOptions) =>
    readPage<Execution>(
      raw.GET("/sessions/{session_id}/executions/", {
        params: { path: { session_id: sessionId }, header: fieldsHeader(o), query: listQuery(o) },
        ...listInit(o),
      }),
    );
  const executionsPage = (o?: ListExecutionsOptions & PageOptions) =>
    readPage<Execution>(raw.GET("/executions/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  const plansPage = (o?: CallOptions & PageOptions) =>
    readPage<Plan>(raw.GET("/plans/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  const planRunsPage = (planId: string, o?: CallOptions & PageOptions) =>
    readPage<PlanRun>(
      raw.GET("/plans/{plan_id}/runs/", { params: { path: { plan_id: planId }, header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }),
    );
  const seriesPage = (o?: ListSeriesOptions & PageOptions) =>
    readPage<Series>(raw.GET("/series/", { params: { header: fieldsHeader(o), query: seriesQuery(o) }, ...listInit(o) }));
  const seriesPointsPage = (seriesId: string, o?: SeriesPointsOptions & PageOptions) =>
    readPage<SeriesPoint>(
      raw.GET("/series/{series_id}/points", {
        params: { path: { series_id: seriesId }, header: fieldsHeader(o), query: { ...pageQuery(o), branch: o?.branch } },
        ...listInit(o),
      }),
    );
  const seriesChangesPage = (seriesId: string, o?: CallOptions & PageOptions) =>
    readPage<Change>(
      raw.GET("/series/{series_id}/changes", {
        params: { path: { series_id: seriesId }, header: fieldsHeader(o), query: pageQuery(o) },
        ...listInit(o),
      }),
    );
  const changesPage = (o?: ListChangesOptions & PageOptions) =>
    readPage<Change>(raw.GET("/changes/", { params: { header: fieldsHeader(o), query: changeQuery(o) }, ...listInit(o) }));
  const auditPage = (o?: ListAuditEntriesOptions & PageOptions) =>
    readPage<AuditEntry>(raw.GET("/admin/audit", { params: { header: fieldsHeader(o), query: auditQuery(o) }, ...listInit(o) }));
  const webhooksPage = (o?: CallOptions & PageOptions) =>
    readPage<Webhook>(raw.GET("/webhooks/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  const tokensPage = (o?: CallOptions & PageOptions) =>
    readPage<Token>(raw.GET("/admin/tokens/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  const webhookDeliveriesPage = (webhookId: string, o?: CallOptions & PageOptions) =>
    readPage<WebhookDelivery>(
      raw.GET("/webhooks/{webhook_id}/deliveries", {
        params: { path: { webhook_id: webhookId }, header: fieldsHeader(o), query: listQuery(o) },
        ...listInit(o),
      }),
    );
  // Prepare and run: the same call, on their own path; the overloads say what `async` answers.
  const startStep = (path: "/executions/{exec_id}/prepare" | "/executions/{exec_id}/run") => (execId: string, o?: StepOptions) =>
    unwrap<StepResult | StepAttempt>(raw.POST(path, { params: { path: { exec_id: execId }, header: stepHeaders(o) }, ...init(o) }));

  return {
    ...ingestsMethods({ raw }),
    raw,
    listBenchmarks: (o) => unwrap(raw.GET("/benchmarks/", { params: { header: fieldsHeader(o) }, ...init(o) })),
    getBenchmark: (benchmarkId, o) =>
      unwrap(
        raw.GET("/benchmarks/{benchmark_id}", {
          params: { path: { benchmark_id: benchmarkId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    listProviders: (o) => unwrap(raw.GET("/providers/", { params: { header: fieldsHeader(o) }, ...init(o) })),
    whoami: (o) => unwrap(raw.GET("/whoami", { params: { header: fieldsHeader(o) }, ...init(o) })),
    createSession: (body, o) => unwrap(raw.POST("/sessions/", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listSessions: async (o) => (await sessionsPage(o)).items,
    listSessionsPage: sessionsPage,
    sessions: (o) => followPages((cursor) => sessionsPage({ ...o, limit: o?.pageSize ?? FOLLOW_PAGE_SIZE, cursor })),
    getSession: (sessionId, o) =>
      unwrap(
        raw.GET("/sessions/{session_id}", {
          params: { path: { session_id: sessionId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    updateSession: (sessionId, body, o) =>
      unwrap(
        raw.PATCH("/sessions/{session_id}", {
          body,
          params: { path: { session_id: sessionId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    deleteSession: async (sessionId, o) => {
      await unwrap(raw.DELETE("/sessions/{session_id}", { params: { path: { session_id: sessionId } }, ...init(o) }));
    },
    createExecution: (sessionId, body, o) =>
      unwrap(
        raw.POST("/sessions/{session_id}/executions/", {
          body,
          params: { path: { session_id: sessionId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    listSessionExecutions: async (sessionId, o) => (await sessionExecutionsPage(sessionId, o)).items,
    listSessionExecutionsPage: sessionExecutionsPage,
    listExecutions: async (o) => (await executionsPage(o)).items,
    listExecutionsPage: executionsPage,
    executions: (o) => followPages((cursor) => executionsPage({ ...o, limit: o?.pageSize ?? FOLLOW_PAGE_SIZE, cursor })),
    createPlan: (body, o) =>
      unwrap(raw.POST("/plans/", { body, params: { header: fieldsHeader(o), query: o?.dryRun ? { dry_run: true } : undefined }, ...init(o) })),
    listPlans: async (o) => (await plansPage(o)).items,
    listPlansPage: plansPage,
    getPlan: (planId, o) => unwrap(raw.GET("/plans/{plan_id}", { params: { path: { plan_id: planId }, header: fieldsHeader(o) }, ...init(o) })),
    deletePlan: async (planId, o) => {
      await unwrap(raw.DELETE("/plans/{plan_id}", { params: { path: { plan_id: planId } }, ...init(o) }));
    },
    pausePlanSchedule: (planId, o) =>
      unwrap(raw.POST("/plans/{plan_id}/pause", { params: { path: { plan_id: planId }, header: fieldsHeader(o) }, ...init(o) })),
    resumePlanSchedule: (planId, o) =>
      unwrap(raw.POST("/plans/{plan_id}/resume", { params: { path: { plan_id: planId }, header: fieldsHeader(o) }, ...init(o) })),
    startPlanRun: (planId, o) => unwrap(raw.POST("/plans/{plan_id}/runs/", { params: { path: { plan_id: planId } }, ...init(o) })),
    listPlanRuns: async (planId, o) => (await planRunsPage(planId, o)).items,
    listPlanRunsPage: planRunsPage,
    getPlanRun: (planId, runId, o) =>
      unwrap(raw.GET("/plans/{plan_id}/runs/{run_id}", { params: { path: { plan_id: planId, run_id: runId }, header: fieldsHeader(o) }, ...init(o) })),
    cancelPlanRun: (planId, runId, o) =>
      unwrap(raw.DELETE("/plans/{plan_id}/runs/{run_id}", { params: { path: { plan_id: planId, run_id: runId } }, ...init(o) })),
    // The operation answers JSON or text by `format`: each method reads the one it asks for.
    getPlanRunReport: (planId, runId, o) =>
      unwrap<PlanReport>(
        raw.GET("/plans/{plan_id}/runs/{run_id}/report", {
          params: { path: { plan_id: planId, run_id: runId }, header: fieldsHeader(o) },
          ...init(o),
        }) as Promise<{ data?: PlanReport; error?: unknown; response: Response }>,
      ),
    getPlanRunReportText: (planId, runId, format, o) =>
      unwrap<string>(
        raw.GET("/plans/{plan_id}/runs/{run_id}/report", {
          params: { path: { plan_id: planId, run_id: runId }, query: { format } },
          parseAs: "text",
          ...init(o),
        }) as Promise<{ data?: string; error?: unknown; response: Response }>,
      ),
    createWebhook: (body, o) => unwrap(raw.POST("/webhooks/", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listWebhooks: async (o) => (await webhooksPage(o)).items,
    listWebhooksPage: webhooksPage,
    getWebhook: (webhookId, o) =>
      unwrap(raw.GET("/webhooks/{webhook_id}", { params: { path: { webhook_id: webhookId }, header: fieldsHeader(o) }, ...init(o) })),
    deleteWebhook: async (webhookId, o) => {
      await unwrap(raw.DELETE("/webhooks/{webhook_id}", { params: { path: { webhook_id: webhookId } }, ...init(o) }));
    },
    listWebhookDeliveries: async (webhookId, o) => (await webhookDeliveriesPage(webhookId, o)).items,
    listWebhookDeliveriesPage: webhookDeliveriesPage,
    exportMetrics: (o) => exportMetricsText(raw, o.format, o),
    exportMetricsStream: (o) => exportMetricsStream(raw, o.format, o),
    metricRows: (o) => streamMetricRows(raw, o),
    compareExecutions: (ids, o) =>
      unwrap(
        raw.GET("/executions/compare", {
          params: {
            header: fieldsHeader(o),
            query: {
              ids,
              baseline: o?.baseline,
              confidence: o?.confidence,
              min_difference: o?.minDifference,
              margin: o?.margin,
              warmup: o?.warmup === undefined ? undefined : String(o.warmup),
            },
          },
          querySerializer: LIST_QUERY_SERIALIZER,
          ...init(o),
        }),
      ),
    getExecution: (execId, o) =>
      unwrap(
        raw.GET("/executions/{exec_id}", {
          params: { path: { exec_id: execId }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    prepare: startStep("/executions/{exec_id}/prepare") as BenchwrightClient["prepare"],
    run: startStep("/executions/{exec_id}/run") as BenchwrightClient["run"],
    cancelExecution: (execId, o) =>
      unwrap(raw.POST("/executions/{exec_id}/cancel", { params: { path: { exec_id: execId }, header: fieldsHeader(o) }, ...init(o) })),
    getStep: (execId, step, attempt, o) =>
      unwrap(
        raw.GET("/executions/{exec_id}/steps/{step}/{attempt}", {
          params: { path: { exec_id: execId, step, attempt }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
    getTelemetry: (execId, o) =>
      unwrap<ExecutionTelemetry>(
        raw.GET("/executions/{exec_id}/telemetry", {
          params: { path: { exec_id: execId }, query: { attempt: o?.attempt } },
          ...init(o),
        }) as Promise<{ data?: ExecutionTelemetry; error?: unknown; response: Response }>,
      ),
    getTelemetryCsv: (execId, o) =>
      unwrap<string>(
        raw.GET("/executions/{exec_id}/telemetry", {
          params: { path: { exec_id: execId }, query: { attempt: o?.attempt, format: "csv" } },
          parseAs: "text",
          ...init(o),
          // Asked for by name too, so that a mock of the contract (Prism) answers its CSV example.
          headers: { Accept: "text/csv", ...o?.headers },
        }) as Promise<{ data?: string; error?: unknown; response: Response }>,
      ),
    getLog: (execId, o) =>
      unwrap(
        raw.GET("/executions/{exec_id}/logs", {
          params: { path: { exec_id: execId }, query: { step: o?.step, attempt: o?.attempt } },
          parseAs: "text",
          ...init(o),
        }),
      ),
    logs: (execId, o) => streamLog(raw, execId, o),
    events: (o) => followEvents(raw, o),
    sweep: (body, o) => unwrap(raw.POST("/admin/sweep", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listAuditEntries: async (o) => (await auditPage(o)).items,
    listAuditEntriesPage: auditPage,
    createToken: (body, o) => unwrap(raw.POST("/admin/tokens/", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listTokens: async (o) => (await tokensPage(o)).items,
    listTokensPage: tokensPage,
    getToken: (tokenId, o) => unwrap(raw.GET("/admin/tokens/{token_id}", { params: { path: { token_id: tokenId }, header: fieldsHeader(o) }, ...init(o) })),
    revokeToken: async (tokenId, o) => {
      await unwrap(raw.DELETE("/admin/tokens/{token_id}", { params: { path: { token_id: tokenId } }, ...init(o) }));
    },
    listSeries: async (o) => (await seriesPage(o)).items,
    listSeriesPage: seriesPage,
    series: (o) => followPages((cursor) => seriesPage({ ...o, limit: o?.pageSize ?? FOLLOW_PAGE_SIZE, cursor })),
    getSeries: (seriesId, o) => unwrap(raw.GET("/series/{series_id}", { params: { path: { series_id: seriesId }, header: fieldsHeader(o) }, ...init(o) })),
    listSeriesPoints: async (seriesId, o) => (await seriesPointsPage(seriesId, o)).items,
    listSeriesPointsPage: seriesPointsPage,
    seriesPoints: (seriesId, o) => followPages((cursor) => seriesPointsPage(seriesId, { ...o, limit: o?.pageSize ?? FOLLOW_PAGE_SIZE, cursor })),
    setSeriesBaseline: (seriesId, body, o) =>
      unwrap(raw.PUT("/series/{series_id}/baseline", { body, params: { path: { series_id: seriesId }, header: fieldsHeader(o) }, ...init(o) })),
    clearSeriesBaseline: async (seriesId, o) => {
      await unwrap(raw.DELETE("/series/{series_id}/baseline", { params: { path: { series_id: seriesId } }, ...init(o) }));
    },
    listSeriesChanges: async (seriesId, o) => (await seriesChangesPage(seriesId, o)).items,
    listSeriesChangesPage: seriesChangesPage,
    listChanges: async (o) => (await changesPage(o)).items,
    listChangesPage: changesPage,
    changes: (o) => followPages((cursor) => changesPage({ ...o, limit: o?.pageSize ?? FOLLOW_PAGE_SIZE, cursor })),
    getChange: (changeId, o) => unwrap(raw.GET("/changes/{change_id}", { params: { path: { change_id: changeId }, header: fieldsHeader(o) }, ...init(o) })),
    acknowledgeChange: (changeId, o) =>
      unwrap(raw.POST("/changes/{change_id}/acknowledge", { params: { path: { change_id: changeId }, header: fieldsHeader(o) }, ...init(o) })),
  };
}
