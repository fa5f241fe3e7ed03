export { createClient } from "./client.js";
export type {
  BenchwrightClient,
  CallOptions,
  ClientOptions,
  LogOptions,
  RawClient,
  RequestOptions,
  StepOptions,
} from "./client.js";
export { BenchwrightProblemError } from "./errors.js";
export type { LogStreamOptions } from "./logs.js";
export type { EventsOptions } from "./events.js";
export { prepareAndRun, waitForState, waitForStep, WaitForStateTimeoutError } from "./helpers.js";
export type { PrepareAndRunResult, WaitForStateOptions, WaitForStepOptions } from "./helpers.js";
export type * from "./types.js";
