import express, { type ErrorRequestHandler, type Express, type Request, type Response } from "express";
import OpenApiValidator from "express-openapi-validator";
import { loadSpec, loadSwagger, wholeAnswers } from "@benchwright/contract";
import { BenchwrightError, RESERVED_PRINCIPAL_MESSAGE, storageFull, storageFullReason, type Engine } from "@benchwright/engine";
import { authenticate, requireAdminToken } from "./http/auth.js";
import { ownResourcesOnly, requireRole } from "./api/access.js";
import type { Role } from "./principals/principal.js";
import { requiredRoles } from "./principals/roles.js";
import { auditWrites } from "./http/audit.js";
import { type Quotas, rateLimit, type RateLimit } from "./principals/rate-limit.js";
import { contractResponseHeaders, cors } from "./http/cors.js";
import { ownHostsOnly, sameOriginChanges } from "./http/cross-site.js";
import { docsRouter, isDocsPath } from "./operations/docs.js";
import { emptyOptionalBody } from "./contract/empty-body.js";
import { DEFAULT_MAX_EVENT_SUBSCRIBERS, SubscriberCap } from "./api/event-stream.js";
import { healthRouter } from "./operations/health.js";
import { inSeries } from "./http/in-series.js";
import { jsonBody } from "./http/json-body.js";
import { serializeFrozenOnce } from "./contract/json-once.js";
import { applyFieldsMask, parseFieldsMask, type FieldsMask } from "./api/fields-mask.js";
import { requestLogger, silentLogger, withRequestId, type Logger } from "./operations/logger.js";
import { Metrics, UNMATCHED } from "./operations/metrics.js";
import { problemOf, sendProblem } from "./http/problem.js";
import { headerParametersByOperation, rememberedValidation } from "./contract/remembered-validation.js";
import { responseValidationOf, validateResponsesOption, withoutResponses } from "./contract/response-validation.js";
import { cacheValidatorRouteRegexps } from "./contract/route-regexp-cache.js";
import { cheapValidatorStart } from "./contract/validator-startup.js";
import { cheapValidatorCompiles } from "./contract/validator-compiles.js";
import { lazyResponseValidators } from "./contract/lazy-response-validators.js";
import { API_BASE, apiOperations, dispatch, type OpenApiRequest } from "./api/routes.js";
import { normalizeTrailingSlash, operationPathMatcher, pathOf } from "./http/trailing-slash.js";
import { isWebUiPath, webUiRouter } from "./operations/web-ui.js";
import { FailedAuthLimit, type FailedAuthRate } from "./http/failed-auth-limit.js";

export interface AppOptions {
  engine: Engine;
  /**
   * When set, every operation but the docs needs a bearer token: this one (the bootstrap admin's)
   * or one made through the admin API, with the role the operation's security requirement names.
   */
  token?: string;
  /** The role each stored provider configuration needs, by name (BENCHWRIGHT_PROVIDER_ROLES); `local` and `inline` admin's by default. */
  providerRoles?: Readonly<Record<string, Role>>;
  /** Origins whose pages may call the server (BENCHWRIGHT_CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  /**
   * Without a token, the hosts a request's `Host` may name beside the server's own names
   * (localhost, loopback, the address it came in on): the configured HOST and
   * BENCHWRIGHT_ALLOWED_HOSTS. `*` answers any host.
   */
  allowedHosts?: readonly string[];
  /** Fail responses that break the contract (tests); otherwise as BENCHWRIGHT_VALIDATE_RESPONSES says (default: unchecked). */
  validateResponses?: boolean;
  log?: Logger;
  /** `GET /metrics` without a token (BENCHWRIGHT_METRICS_PUBLIC); by default, when a token is set, it needs an admin's (the bootstrap one or a made one). */
  metricsPublic?: boolean;
  /** Node's process metrics beside the server's: one set per process, so only the process's own server asks. */
  processMetrics?: boolean;
  /** Event streams held open at once (BENCHWRIGHT_MAX_EVENT_SUBSCRIBERS); more are refused with `too_many_subscribers`. Default 1000. */
  maxEventSubscribers?: number;
  /**
   * Requests a second per principal, counted across every server on the database
   * (BENCHWRIGHT_RATE_LIMIT_RPS, BENCHWRIGHT_RATE_LIMIT_BURST); unlimited without.
   */
  rateLimit?: RateLimit;
  /**
   * With a token set, the requests a second each client address may send that no token admits,
   * counted by this server alone; over it, `429 rate_limited` before any lookup. Default 1 a second, 60 at once.
   */
  failedAuthRate?: FailedAuthRate;
  /** Live sessions and steps under way per principal (BENCHWRIGHT_QUOTA_SESSIONS, BENCHWRIGHT_QUOTA_STEPS); none without. */
  quotas?: Quotas;
  /** Other servers' origins the dashboard may call, opened with `?api=` (BENCHWRIGHT_UI_API_ORIGINS): its CSP's connect-src names them. */
  uiApiOrigins?: readonly string[];
  /** apps/web's build, served at /ui/; default: the repository's apps/web/dist (a 404 that says so when it is not built). */
  webUiDir?: string;
}

/** The HTTP face of the engine. Only main.ts listens; tests start this in process. */
export function createApp(options: AppOptions): Express {
  const { engine, log = silentLogger } = options;
  const spec = loadSpec() as { paths: Record<string, Record<string, Operation | undefined> | undefined> };
  // Read once, at startup: an operation without a role in the contract stops the server here.
  const roles = requiredRoles(spec);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  serializeFrozenOnce(app);
  cacheValidatorRouteRegexps();
  cheapValidatorStart();
  cheapValidatorCompiles();
  lazyResponseValidators();
  // The validator reads this setting too: both it and every mount below match case as the
  // contract spells it (the operation gate below makes the rest of the path exact).
  app.set("case sensitive routing", true);

  const templateOf = operationPathMatcher(API_BASE, Object.keys(spec.paths));
  // Past the docs, a request is an operation of the contract, spelled as the contract spells
  // it, or a 404 before anything else reads it: Express and the validator differ on case,
  // `//` or `/./`, and what one of them lets through the other must not see unchecked.
  // Looked up once per request (three middlewares ask), after the trailing slash is settled.
  const operations = new WeakMap<Request, Operation | undefined>();
  const operationOf = (req: Request) => {
    if (operations.has(req)) return operations.get(req);
    const operation = spec.paths[templateOf(pathOf(req.url)) ?? ""]?.[req.method.toLowerCase()];
    operations.set(req, operation);
    return operation;
  };
  const eventStreams = new SubscriberCap(options.maxEventSubscribers ?? DEFAULT_MAX_EVENT_SUBSCRIBERS);
  const metrics = new Metrics(engine, { processMetrics: options.processMetrics, eventStreams });
  // Once the answer has ended the path may have been cut to the router's part: the label is read from originalUrl.
  const operationLabel = (req: Request) => {
    const path = pathOf(req.originalUrl);
    const operation = operations.get(req) ?? spec.paths[templateOf(path) ?? ""]?.[req.method.toLowerCase()];
    return operation?.operationId ?? OUTSIDE_API[path] ?? (isDocsPath(path) ? "docs" : isWebUiPath(path) ? "ui" : UNMATCHED);
  };
  // The pages and probes beside the API: an operation's request passes them with one look at its path.
  const outside = express.Router();
  outside.use(docsRouter(spec, loadSwagger));
  outside.use(webUiRouter(options.webUiDir, options.uiApiOrigins));
  outside.use(healthRouter(engine));
  const failedAuth = new FailedAuthLimit(options.failedAuthRate);
  outside.use(metrics.router(options.token && !options.metricsPublic ? requireAdminToken(options.token, engine, failedAuth) : undefined));
  app.use(
    inSeries(
      metrics.requests(operationLabel),
      // Every request gets an id (the caller's X-Request-Id or a new one) that its lines and its answer carry.
      requestLogger(log, operationLabel),
      // Once it has an id, a state-changing request is recorded when its answer has gone, whatever stops it below.
      auditWrites(engine, (req) => operationOf(req)?.operationId ?? null, log),
      // Before anything reads the request: a page that rebound its name to this server gets nothing
      // (a token, when set, is what such a page lacks).
      options.token ? passOn : ownHostsOnly(options.allowedHosts ?? []),
      // First after that: a preflight is answered before any redirect, token check or validation.
      cors(options.corsOrigins ?? [], contractResponseHeaders(spec)),
      // And a page of another origin changes nothing, even where its browser sent no preflight.
      sameOriginChanges(options.corsOrigins ?? []),
      normalizeTrailingSlash(API_BASE, templateOf),
      (req, res, next) => (outsideApi(pathOf(req.url)) ? outside(req, res, next) : next()),
    ),
  );
  if (options.token) app.use(API_BASE, authenticate(options.token, engine, failedAuth));
  // Once the principal is known, before anything else reads the request.
  if (options.rateLimit) app.use(API_BASE, rateLimit(engine, options.rateLimit));
  const json = jsonBody({ limit: "1mb" });
  const responses = options.validateResponses ? "fail" : responseValidationOf();
  const validator = OpenApiValidator.middleware({
    // The validator sees an answer before its mask is applied (see fieldsMask): it checks the
    // whole record, required fields and all, not the contract's `anyOf [Whole, Masked]`.
    apiSpec: (responses === "off" ? withoutResponses(loadSpec()) : wholeAnswers(loadSpec())) as never,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: validateResponsesOption(responses, log),
    validateSecurity: false,
    validateApiSpec: false,
    // No operation takes multipart bodies: one middleware less on every request.
    fileUploader: false,
  });
  const validate = express.Router().use(validator);
  app.use(
    inSeries(
      (req, _res, next) => (operationOf(req) ? next() : next(notFound(req))),
      // Before the request is read further: a token below the operation's role learns nothing more.
      requireRole(roles, (req) => operationOf(req)?.operationId),
      // Only an operation that takes a body gets one parsed: the body of a GET or of a prepare
      // means nothing, and its charset or syntax cannot make that operation fail.
      emptyOptionalBody(spec, operationOf),
      (req, res, next) => (operationOf(req)?.requestBody ? json(req, res, next) : next()),
      fieldsMask,
      responses === "off" ? rememberedValidation(validate, (req) => operationOf(req)?.operationId, headerParametersByOperation(spec)) : validate,
      // Every request here is an operation (the gate above): served without a mount, which would cut
      // and restore its path for nothing.
      validatedOnly,
      // After validation, which has matched the path's parameters: another principal's session or execution is refused.
      ownResourcesOnly(engine),
      withRequestId,
      dispatch(apiOperations(engine, { eventStreams, quotas: options.quotas, providerRoles: options.providerRoles, tokenWatch: engine.tokenWatch() })),
    ),
  );
  app.use((req, _res, next) => next(notFound(req)));
  app.use(errorHandler(log));
  return app;
}

const passOn: express.RequestHandler = (_req, _res, next) => next();

interface Operation {
  operationId?: string;
  requestBody?: unknown;
}

/** What the server answers outside the contract, each its own label in the request metrics. */
const OUTSIDE_API: Record<string, string> = { "/healthz": "healthz", "/readyz": "readyz", "/metrics": "metrics" };

/**
 * Whether a path may be one of the pages or probes beside the API. Their routers match any
 * case: under /api/v1/ only the docs' paths, in any case, go to them.
 */
function outsideApi(path: string): boolean {
  const lower = path.toLowerCase();
  return !lower.startsWith(`${API_BASE}/`) || isDocsPath(lower) || lower === `${API_BASE}/docs`;
}

/**
 * The routes' own router matches loosely (any case, either slash), the validator exactly: a
 * request the validator did not match to an operation would reach a handler unchecked.
 * And the validator lets a parameter `1e309` through as an integer (coerced from the string to
 * Infinity, on which ajv checks no limit; a JSON body cannot hold one): refused here.
 */
const validatedOnly: express.RequestHandler = (req, _res, next) => {
  const openapi = (req as OpenApiRequest).openapi;
  if (!openapi) return next(notFound(req));
  const errors = [...nonFinite(openapi.pathParams, "/params"), ...nonFinite(req.query, "/query")].map((path) => ({
    path,
    message: "must be a finite number",
  }));
  if (errors.length) return next(new BenchwrightError("validation_failed", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors }));
  next();
};

/** Where a value holds ±Infinity or NaN: parameters are flat, or arrays of flat values. */
function nonFinite(value: unknown, at: string, found: string[] = []): string[] {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) found.push(at);
  } else if (value && typeof value === "object") {
    // Every request passes here: no copies of its parameters on the way.
    for (const k in value) if (Object.hasOwn(value, k)) nonFinite((value as Record<string, unknown>)[k], `${at}/${k}`, found);
  }
  return found;
}

function notFound(req: Request): BenchwrightError {
  return new BenchwrightError("not_found", `No operation at ${req.method} ${pathOf(req.originalUrl)}`);
}

/**
 * Parses X-Fields before anything happens (a bad mask changes nothing) and masks JSON
 * answers. It wraps res.json before the validator does, so responses are checked whole.
 */
const fieldsMask: express.RequestHandler = (req, res, next) => {
  const header = req.get("x-fields");
  if (header === undefined) return next();
  let mask: FieldsMask;
  try {
    mask = parseFieldsMask(header);
  } catch (e) {
    return next(e);
  }
  const json = res.json.bind(res);
  res.json = (body: unknown) => json(res.statusCode < 300 ? applyFieldsMask(body, mask) : body);
  next();
};

function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req: Request, res: Response, _next) => {
    const problem = problemOf(toBenchwrightError(err, req, log), req.originalUrl.split("?")[0]);
    if (res.headersSent) {
      res.end();
      return;
    }
    sendProblem(res, problem);
  };
}

interface HttpLikeError {
  status?: number;
  type?: string;
  message?: string;
  errors?: Array<{ path?: string; message?: string }>;
}

function toBenchwrightError(err: unknown, req: Request, log: Logger): BenchwrightError {
  // Wherever it came from here (the database, a log, the secret key), a full disk is the operator's to fix, not a bug: a 507.
  // A problem the engine already named (a host's disk full is a step's or a provider's failure) keeps its code.
  if ((!(err instanceof BenchwrightError) || err.code === "internal") && storageFullReason(err)) {
    (req.log ?? log).error({ path: req.originalUrl, error: (err as Error).message ?? String(err) }, "storage full");
    return storageFull(err);
  }
  if (err instanceof BenchwrightError) return err;
  const e = (err ?? {}) as HttpLikeError;
  if (e.type === "entity.parse.failed") return new BenchwrightError("bad_json", "The request body is not valid JSON");
  if (e.type === "entity.too.large") return new BenchwrightError("validation_failed", "The request body is larger than 1 MiB");
  if (e.status === 415) return new BenchwrightError("unsupported_media_type", "Send the request body as application/json");
  if (e.status === 404) return notFound(req);
  // A known path with a method it does not have is, for the client, an operation that does not exist.
  if (e.status === 405) return new BenchwrightError("not_found", `${req.method} is not an operation of ${req.path}`);
  if (e.status === 400 && Array.isArray(e.errors)) {
    const errors = e.errors.map((x) => {
      const path = String(x.path ?? "");
      return { path, message: (x.message === "must NOT be valid" && NOT_MESSAGES[path]) || String(x.message ?? "") };
    });
    return new BenchwrightError("validation_failed", explainValidation(req, errors), { errors });
  }
  (req.log ?? log).error({ path: req.originalUrl, error: e.message ?? String(err) }, "unexpected error");
  return new BenchwrightError("internal", "An unexpected error occurred; it was logged");
}

/** What a contract's `not` refuses, said for the fields that have one (the validator says only "must NOT be valid"). */
const NOT_MESSAGES: Record<string, string> = { "/body/principal": RESERVED_PRINCIPAL_MESSAGE };

/** Session creation's two forms make oneOf errors cryptic: say which form was meant. */
function explainValidation(req: Request, errors: Array<{ path: string; message: string }>): string {
  const first = errors.map((x) => `${x.path} ${x.message}`).join("; ");
  const body = req.body as Record<string, unknown> | undefined;
  if (req.method === "POST" && /^\/api\/v1\/sessions\/?$/.test(req.path) && body && typeof body === "object" && !Array.isArray(body)) {
    const formA = "provider" in body || "service" in body || "service-type" in body;
    const formB = "config" in body;
    if (formA && formB) return `Send either Form A {provider, service} or Form B {config}, not both (${first})`;
    if (!formA && !formB) return `Send Form A {provider, service} or Form B {config} (${first})`;
    return `${formA ? "Form A {provider, service}" : "Form B {config}"}: ${first}`;
  }
  return first;
}
