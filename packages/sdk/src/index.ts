export { createClient } from "./client.js";
export type {
  BenchwrightClient,
  CallOptions,
  ClientOptions,
  CompareOptions,
  ListAuditEntriesOptions,
  ListChangesOptions,
  ListExecutionsOptions,
  ListSessionExecutionsOptions,
  ListSeriesOptions,
  SeriesPointsOptions,
  ListSessionsOptions,
  LogOptions,
  RawClient,
  RequestOptions,
  StepOptions,
} from "./client.js";
export { BenchwrightProblemError } from "./errors.js";
/** The contract's catalogue of problems: each code with its HTTP status and title. */
export { PROBLEMS, isProblemCode } from "./generated/problems.js";
export type { ProblemKind } from "./generated/problems.js";
export type { LogStreamOptions } from "./logs.js";
export type { EventsOptions } from "./events.js";
export type { ExecutionFilters, FollowOptions, Page, PageOptions, SessionExecutionFilters, SessionFilters } from "./lists.js";
export type { ChangeFilters, SeriesFilters } from "./series-filters.js";
export type { AuditFilters } from "./audit-filters.js";
export type { MetricsExportOptions } from "./metric-rows.js";
export { prepareAndRun, waitForState, waitForStep, WaitForStateTimeoutError } from "./helpers.js";
export type { PrepareAndRunResult, WaitForStateOptions, WaitForStepOptions } from "./helpers.js";
export type * from "./types.js";
