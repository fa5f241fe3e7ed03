export { createClient } from "./client.js";
export type {
  BenchwrightClient,
  CallOptions,
  ClientOptions,
  LogOptions,
  RawClient,
  RequestOptions,
} from "./client.js";
export { BenchwrightProblemError } from "./errors.js";
export { prepareAndRun, waitForState, WaitForStateTimeoutError } from "./helpers.js";
export type { PrepareAndRunResult, WaitForStateOptions } from "./helpers.js";
export type * from "./types.js";
