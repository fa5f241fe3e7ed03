import type { Request, RequestHandler, Response } from "express";
import type { operations } from "@benchwright/contract";
import { BOOTSTRAP_PRINCIPAL, type Engine, type MetricsExportQuery, type ReportFormat, type TelemetryFormat, type TokenWatch } from "@benchwright/engine";
import { principalOf, type Role } from "../principals/principal.js";
import { DEFAULT_PROVIDER_ROLES } from "../principals/roles.js";
import { checkProviderRole, checkReadable, executionsVisibleTo, sessionsVisibleTo, visibilityOf } from "./access.js";
import { streamEvents, type SubscriberCap } from "./event-stream.js";
import type { Quotas } from "../principals/rate-limit.js";
import { listQueryOf, sendPage } from "./list-response.js";
import { sendLog } from "./log-response.js";
import { sendMetricsExport, type ExportFormat } from "./metrics-export.js";
import { unlessGone } from "./session-gone.js";

/** Where the contract's paths are served. */
export const API_BASE = "/api/v1";

/** What serves one operation; the validator has checked the request and set its path parameters. */
export type OperationHandler = (req: Request<Record<string, string>>, res: Response) => unknown;

/**
 * One line per operation of the contract, by its operationId: HTTP in, one engine call, HTTP
 * out. The request reaches its line through the operation the validator matched it to
 * (see dispatch), not through a second router matching the path again.
 */
export function apiOperations(
  engine: Engine,
  options: { eventStreams?: SubscriberCap; quotas?: Quotas; providerRoles?: Readonly<Record<string, Role>>; tokenWatch?: TokenWatch } = {},
): Record<keyof operations, OperationHandler> {
  /** What a stream held open for this request ends with: its token's revocation or expiry (none for the bootstrap token). */
  const tokenEnd = async (res: Response): Promise<{ signal?: AbortSignal; release: () => void }> => {
    const token = principalOf(res).token;
    if (!token || !options.tokenWatch) return { release: () => {} };
    const watch = await options.tokenWatch.watch(token);
    res.on("close", watch.release);
    return watch;
  };
  const providerRoles = options.providerRoles ?? DEFAULT_PROVIDER_ROLES;
  const ok = (res: Response, status: number, body: unknown) => res.status(status).json(body);
  const { sessions: maxSessions, steps: maxSteps } = options.quotas ?? {};
  const step =
    (kind: "prepare" | "run"): OperationHandler =>
    async (req, res) => {
      const attempt =
        maxSteps === undefined
          ? await engine.startStep(kind, req.params.exec_id)
          : await engine.startStepWithinQuota(principalOf(res).id, maxSteps, kind, req.params.exec_id);
      // Prefer: respond-async (RFC 7240) answers 202 at once; without it the seed's synchronous answer.
      if (!prefersAsync(req.get("prefer"))) return ok(res, 200, await engine.waitForStep(attempt));
      res.set("Location", `${API_BASE}/executions/${attempt.execution_id}/steps/${attempt.step}/${attempt.attempt}`);
      res.set("Preference-Applied", "respond-async");
      ok(res, 202, attempt);
    };
  return {
    listBenchmarks: async (_req, res) => ok(res, 200, await engine.listBenchmarks()),
    getBenchmark: async (req, res) => ok(res, 200, await engine.getBenchmark(req.params.benchmark_id)),
    // 201 with its Location when created, 200 when it wrote the next version.
    putBenchmark: async (req, res) => {
      const { view, created } = await engine.putBenchmark(req.params.benchmark_id, req.body, principalOf(res).id);
      if (created) res.set("Location", `${API_BASE}/benchmarks/${encodeURIComponent(view.id)}`);
      ok(res, created ? 201 : 200, view);
    },
    deleteBenchmark: async (req, res) => {
      await engine.deleteBenchmark(req.params.benchmark_id, principalOf(res).id);
      res.status(204).end();
    },
    listBenchmarkVersions: async (req, res) => ok(res, 200, await engine.listBenchmarkVersions(req.params.benchmark_id)),
    getBenchmarkVersion: async (req, res) => ok(res, 200, await engine.getBenchmarkVersion(req.params.benchmark_id, Number(req.params.version))),
    listProviders: async (_req, res) => ok(res, 200, await engine.listProviders()),
    getProvider: async (req, res) => ok(res, 200, await engine.getProvider(req.params.provider_name)),
    // 201 with its Location when created, 200 when it replaced one (a new version).
    putProvider: async (req, res) => {
      const { view, created } = await engine.putProvider(req.params.provider_name, req.body, principalOf(res).id);
      if (created) res.set("Location", `${API_BASE}/providers/${encodeURIComponent(view.name)}`);
      ok(res, created ? 201 : 200, view);
    },
    deleteProvider: async (req, res) => {
      await engine.deleteProvider(req.params.provider_name, principalOf(res).id);
      res.status(204).end();
    },
    getWhoami: (_req, res) => {
      const { id, role } = principalOf(res);
      ok(res, 200, { principal: id, role, bootstrap: id === BOOTSTRAP_PRINCIPAL });
    },
    // 200 on creation, as the Benchmarking Suite answered: its clients check for exactly 200.
    createSession: async (req, res) => {
      const principal = principalOf(res);
      checkProviderRole(principal, req.body, providerRoles);
      const session = await (maxSessions === undefined
        ? engine.createSession(req.body, principal.id)
        : engine.createSessionWithinQuota(principal.id, maxSessions, req.body));
      ok(res, 200, session);
    },
    listSessions: async (req, res) => sendPage(req, res, await engine.listSessions({ ...listQueryOf(req), ...visibilityOf(res) })),
    getSession: async (req, res) => ok(res, 200, unlessGone(await engine.getSession(req.params.session_id))),
    updateSession: async (req, res) => ok(res, 200, await engine.updateSession(req.params.session_id, req.body)),
    deleteSession: async (req, res) => {
      await engine.deleteSession(req.params.session_id);
      res.status(204).end();
    },
    createExecution: async (req, res) => ok(res, 200, await engine.createExecution(req.params.session_id, req.body)),
    listSessionExecutions: async (req, res) =>
      sendPage(req, res, await engine.listExecutions(req.params.session_id, { ...listQueryOf(req), ...visibilityOf(res) })),
    listExecutions: async (req, res) => sendPage(req, res, await engine.listExecutions(undefined, { ...listQueryOf(req), ...visibilityOf(res) })),
    exportMetrics: async (req, res) => {
      const { format = "csv", ...filters } = listQueryOf<MetricsExportQuery & { format?: ExportFormat }>(req);
      await sendMetricsExport(res, engine.exportMetrics({ ...filters, ...visibilityOf(res) }), format);
    },
    compareExecutions: async (req, res) => {
      const q = req.query as {
        ids: string | string[];
        baseline?: string;
        confidence?: string | number;
        min_difference?: string | number;
        margin?: string | number;
        warmup?: string;
      };
      const ids = Array.isArray(q.ids) ? q.ids : q.ids.split(",");
      await checkReadable(engine, principalOf(res), ids);
      ok(
        res,
        200,
        await engine.compareExecutions({
          ids,
          baseline: q.baseline,
          confidence: q.confidence === undefined ? undefined : Number(q.confidence),
          minDifference: q.min_difference === undefined ? undefined : Number(q.min_difference),
          margin: q.margin === undefined ? undefined : Number(q.margin),
          warmup: q.warmup === undefined ? undefined : q.warmup === "auto" ? "auto" : Number(q.warmup),
        }),
      );
    },
    getExecution: async (req, res) => ok(res, 200, await engine.getExecution(req.params.exec_id)),
    prepareExecution: step("prepare"),
    runExecution: step("run"),
    // 200 once the step has ended; 202 when its follower elsewhere has not stopped it yet (it will).
    cancelExecution: async (req, res) => {
      const { execution, ended } = await engine.cancelExecution(req.params.exec_id, { requestId: req.id === undefined ? undefined : String(req.id) });
      ok(res, ended ? 200 : 202, execution);
    },
    getStepAttempt: async (req, res) =>
      ok(res, 200, await engine.getStep(req.params.exec_id, req.params.step as "prepare" | "run", Number(req.params.attempt))),
    getExecutionTelemetry: async (req, res) => {
      const { attempt, format } = req.query as { attempt?: string | number; format?: TelemetryFormat };
      const answer = await engine.executionTelemetry(req.params.exec_id, { attempt: attempt === undefined ? undefined : Number(attempt), format });
      if (answer.format === "json") return ok(res, 200, answer.body);
      res.status(200).type(answer.mediaType).send(answer.body);
    },
    getExecutionLog: async (req, res) => {
      const { step, attempt, follow } = req.query as { step?: "prepare" | "run"; attempt?: string; follow?: string | boolean };
      const log = await engine.openLog(req.params.exec_id, { step, attempt: attempt ? Number(attempt) : undefined });
      const following = String(follow) === "true";
      await sendLog(req, res, log, following, following ? (await tokenEnd(res)).signal : undefined);
    },
    createPlan: async (req, res) => {
      const dryRun = String(req.query.dry_run) === "true";
      const plan = await engine.createPlan(req.body, { dryRun, createdBy: principalOf(res).id });
      if (dryRun) return ok(res, 200, plan);
      res.set("Location", `${API_BASE}/plans/${plan.id}`);
      ok(res, 201, plan);
    },
    listPlans: async (req, res) => sendPage(req, res, await engine.listPlans(listQueryOf(req))),
    getPlan: async (req, res) => ok(res, 200, await engine.getPlan(req.params.plan_id)),
    deletePlan: async (req, res) => {
      await engine.deletePlan(req.params.plan_id);
      res.status(204).end();
    },
    pausePlanSchedule: async (req, res) => ok(res, 200, await engine.pausePlan(req.params.plan_id)),
    resumePlanSchedule: async (req, res) => ok(res, 200, await engine.resumePlan(req.params.plan_id)),
    startPlanRun: async (req, res) => {
      const run = await engine.startPlanRun(req.params.plan_id, { startedBy: principalOf(res).id, branch: req.body?.branch, commit: req.body?.commit });
      res.set("Location", `${API_BASE}/plans/${run.plan_id}/runs/${run.id}`);
      ok(res, 202, run);
    },
    listPlanRuns: async (req, res) => sendPage(req, res, await engine.listPlanRuns(req.params.plan_id, listQueryOf(req))),
    getPlanRun: async (req, res) => ok(res, 200, await engine.getPlanRun(req.params.plan_id, req.params.run_id)),
    cancelPlanRun: async (req, res) => ok(res, 202, await engine.cancelPlanRun(req.params.plan_id, req.params.run_id)),
    getPlanRunReport: async (req, res) => {
      const { format = "json" } = req.query as { format?: ReportFormat };
      const report = await engine.planReport(req.params.plan_id, req.params.run_id, format);
      if (report.format === "json") return ok(res, 200, report.body);
      // CSV and JSON Lines are saved as files, as the metrics export's; the page is shown.
      if (report.format !== "html") res.set("Content-Disposition", `attachment; filename="report.${report.format}"`);
      res.status(200).type(report.mediaType).send(report.body);
    },
    createWebhook: async (req, res) => {
      const webhook = await engine.createWebhook(req.body);
      res.set("Location", `${API_BASE}/webhooks/${webhook.id}`);
      ok(res, 201, webhook);
    },
    listWebhooks: async (req, res) => sendPage(req, res, await engine.listWebhooks(listQueryOf(req))),
    getWebhook: async (req, res) => ok(res, 200, await engine.getWebhook(req.params.webhook_id)),
    deleteWebhook: async (req, res) => {
      await engine.deleteWebhook(req.params.webhook_id);
      res.status(204).end();
    },
    listWebhookDeliveries: async (req, res) => sendPage(req, res, await engine.listWebhookDeliveries(req.params.webhook_id, listQueryOf(req))),
    // Every run's figures are points, whoever ran it: a non-admin reads those of executions it may read (see SeriesBook).
    listSeries: async (req, res) => sendPage(req, res, await engine.listSeries({ ...listQueryOf(req), ...visibilityOf(res) })),
    getSeries: async (req, res) => ok(res, 200, await engine.getSeries(req.params.series_id, visibilityOf(res))),
    listSeriesPoints: async (req, res) => sendPage(req, res, await engine.listSeriesPoints(req.params.series_id, listQueryOf(req), visibilityOf(res))),
    setSeriesBaseline: async (req, res) => ok(res, 200, await engine.setSeriesBaseline(req.params.series_id, req.body)),
    clearSeriesBaseline: async (req, res) => {
      await engine.clearSeriesBaseline(req.params.series_id);
      res.status(204).end();
    },
    listSeriesChanges: async (req, res) => sendPage(req, res, await engine.listSeriesChanges(req.params.series_id, listQueryOf(req), visibilityOf(res))),
    // A change's `state` is one value, not the list listQueryOf makes of other lists' states.
    listChanges: async (req, res) =>
      sendPage(
        req,
        res,
        await engine.listChanges({ ...listQueryOf(req), state: req.query.state as "open" | "acknowledged" | undefined, ...visibilityOf(res) }),
      ),
    getChange: async (req, res) => ok(res, 200, await engine.getChange(req.params.change_id, visibilityOf(res))),
    acknowledgeChange: async (req, res) => ok(res, 200, await engine.acknowledgeChange(req.params.change_id)),
    // Results of harnesses Benchwright does not run, the sender's; a CI's gate on them (issue 39).
    createIngest: async (req, res) => ok(res, 201, await engine.ingest(req.body, principalOf(res).id)),
    createGate: async (req, res) => ok(res, 200, await engine.gate(req.body, visibilityOf(res))),
    streamEvents: async (req, res) =>
      streamEvents(engine, req, res, {
        cap: options.eventStreams,
        canSeeSession: sessionsVisibleTo(engine, res),
        canSeeExecution: executionsVisibleTo(engine, res),
        ended: (await tokenEnd(res)).signal,
      }),
    sweepResources: async (req, res) => ok(res, 200, await engine.sweep(req.body ?? {})),
    listAuditEntries: async (req, res) => sendPage(req, res, await engine.listAudit(listQueryOf(req))),
    createToken: async (req, res) => {
      const token = await engine.createToken(req.body);
      res.set("Location", `${API_BASE}/admin/tokens/${token.id}`);
      ok(res, 201, token);
    },
    listTokens: async (req, res) => sendPage(req, res, await engine.listTokens(listQueryOf(req))),
    getToken: async (req, res) => ok(res, 200, await engine.getToken(req.params.token_id)),
    revokeToken: async (req, res) => {
      await engine.revokeToken(req.params.token_id);
      res.status(204).end();
    },
  };
}

/**
 * Serves a request by the handler of the operation the validator matched it to, with that
 * match's path parameters (the router had reset req.params for this middleware).
 */
export function dispatch(handlers: Record<string, OperationHandler | undefined>): RequestHandler {
  return (req, res, next) => {
    const openapi = (req as OpenApiRequest).openapi;
    const handler = openapi && handlers[openapi.schema.operationId ?? ""];
    if (!handler) return next();
    req.params = openapi.pathParams as Request["params"];
    try {
      const served = handler(req as unknown as Parameters<OperationHandler>[0], res);
      if (served instanceof Promise) served.catch(next);
    } catch (e) {
      next(e);
    }
  };
}

/** What express-openapi-validator sets on a request it matched to an operation. */
export type OpenApiRequest = Request & { openapi?: { pathParams: Record<string, unknown>; schema: { operationId?: string } } };

/** Whether a Prefer header asks for `respond-async`, among other preferences or not. */
function prefersAsync(prefer: string | undefined): boolean {
  return !!prefer && prefer.split(",").some((p) => p.split(";")[0].trim().toLowerCase() === "respond-async");
}
