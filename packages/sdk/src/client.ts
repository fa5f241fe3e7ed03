import createFetchClient, { type HeadersOptions, type Middleware } from "openapi-fetch";
import { clientContext, type RawClient } from "./client-context.js";
import type { paths } from "./generated/schema.js";
import { auditMethods, type AuditMethods } from "./resources/audit.js";
import { benchmarksMethods, type BenchmarksMethods } from "./resources/benchmarks.js";
import { changesMethods, type ChangesMethods } from "./resources/changes.js";
import { eventsMethods, type EventsMethods } from "./resources/events.js";
import { executionsMethods, type ExecutionsMethods } from "./resources/executions.js";
import { ingestsMethods, type IngestsMethods } from "./resources/ingests.js";
import { logsMethods, type LogsMethods } from "./resources/logs.js";
import { metricsMethods, type MetricsMethods } from "./resources/metrics.js";
import { planRunsMethods, type PlanRunsMethods } from "./resources/plan-runs.js";
import { plansMethods, type PlansMethods } from "./resources/plans.js";
import { providersMethods, type ProvidersMethods } from "./resources/providers.js";
import { seriesMethods, type SeriesMethods } from "./resources/series.js";
import { sessionsMethods, type SessionsMethods } from "./resources/sessions.js";
import { stepsMethods, type StepsMethods } from "./resources/steps.js";
import { sweepMethods, type SweepMethods } from "./resources/sweep.js";
import { telemetryMethods, type TelemetryMethods } from "./resources/telemetry.js";
import { tokensMethods, type TokensMethods } from "./resources/tokens.js";
import { webhooksMethods, type WebhooksMethods } from "./resources/webhooks.js";
import { whoamiMethods, type WhoamiMethods } from "./resources/whoami.js";

// The methods' options are declared beside them in their resources' files; index.ts names
// those the SDK exports.
export type * from "./client-context.js";
export type * from "./resources/audit.js";
export type * from "./resources/changes.js";
export type * from "./resources/executions.js";
export type * from "./resources/logs.js";
export type * from "./resources/series.js";
export type * from "./resources/sessions.js";
export type * from "./resources/steps.js";

const API_PREFIX = "/api/v1";

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

/**
 * Every operation of the contract, by resource (`resources/`). Each returns the success body,
 * or throws {@link BenchwrightProblemError}.
 */
export interface BenchwrightClient
  extends BenchmarksMethods,
    ProvidersMethods,
    WhoamiMethods,
    SessionsMethods,
    ExecutionsMethods,
    IngestsMethods,
    StepsMethods,
    TelemetryMethods,
    LogsMethods,
    PlansMethods,
    PlanRunsMethods,
    WebhooksMethods,
    MetricsMethods,
    EventsMethods,
    SweepMethods,
    AuditMethods,
    TokensMethods,
    SeriesMethods,
    ChangesMethods {
  readonly raw: RawClient;
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
  const ctx = clientContext(raw);
  return {
    raw,
    ...benchmarksMethods(ctx),
    ...providersMethods(ctx),
    ...whoamiMethods(ctx),
    ...sessionsMethods(ctx),
    ...executionsMethods(ctx),
    ...ingestsMethods(ctx),
    ...stepsMethods(ctx),
    ...telemetryMethods(ctx),
    ...logsMethods(ctx),
    ...plansMethods(ctx),
    ...planRunsMethods(ctx),
    ...webhooksMethods(ctx),
    ...metricsMethods(ctx),
    ...eventsMethods(ctx),
    ...sweepMethods(ctx),
    ...auditMethods(ctx),
    ...tokensMethods(ctx),
    ...seriesMethods(ctx),
    ...changesMethods(ctx),
  };
}
