import type { WebhookOptions } from "./alerts/webhook-deliverer.js";
import type { EngineLog } from "./engine-log.js";
import type { OutboundPolicy } from "./net/outbound-guard.js";
import type { PlanView } from "./model/plans.js";
import type { PlanRunView } from "./plan-runs/run-view.js";
import type { ProviderOptions } from "./providers/registry.js";
import type { SchedulerOptions } from "./schedules/scheduler.js";
import type { SecretBox } from "./secrets/secret-box.js";
import type { ChangeCheckerOptions, OnChange } from "./series/change-checker.js";
import type { StepWorkerOptions } from "./steps/step-worker.js";

export interface EngineOptions {
  /** Embedded database, logs, local work dirs and the generated secret key live here. */
  dataDir: string;
  /** `providers/` (Form A configurations) and `benchmarks/` (extra definitions) live here. */
  configDir: string;
  /** The built-in `local` configuration when `<configDir>/providers` holds no file (default true). */
  builtinLocal?: boolean;
  /** PostgreSQL instead of the embedded PGlite. */
  databaseUrl?: string;
  /** Keep the embedded database in memory (tests). */
  inMemory?: boolean;
  /** What a new embedded database starts from instead of an empty one: `migratedPgliteImage()` (tests). */
  pgliteImage?: Blob;
  /** Lines for the operator, with what each concerns (session, execution, step); never given a credential. */
  log?: EngineLog;
  providers?: ProviderOptions;
  /**
   * Which addresses the engine's own outbound calls (cloud APIs) may reach: the Internet's only
   * by default; the server's BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS allows private ones too.
   */
  outbound?: OutboundPolicy;
  secrets?: SecretBox;
  /** Whether this process runs steps (a worker); default true. A server that only serves leaves them to workers. */
  work?: boolean;
  /** pg-boss's schema on PostgreSQL; default `<search_path schema>_queue` or `benchwright_queue`. */
  queueSchema?: string;
  /** Lease, renewal and sweep timings of the step worker (tests shorten them). */
  worker?: StepWorkerOptions;
  /** The most seconds a session's `step_timeout` may give a step; default DEFAULT_MAX_STEP_TIMEOUT_S. */
  maxStepTimeoutS?: number;
  /**
   * A principal's quotas (the server's `BENCHWRIGHT_QUOTA_SESSIONS` and `_STEPS`), which its plan
   * runs keep too: a run's driver waits for room instead of going over them. Unset: none.
   */
  quotas?: { sessions?: number; steps?: number };
  /** How often this process's scheduler looks for plans' due ticks, and how late a tick may run (tests shorten them). */
  scheduler?: SchedulerOptions;
  /**
   * Told when a run a plan's schedule started has ended failed (or with a failed cell), once, by
   * the process that recorded its end (the alerts' `schedule_failed`); never awaited. Default: nothing.
   */
  onScheduledRunFailed?: (run: PlanRunView, plan: PlanView) => void | Promise<void>;
  /**
   * Webhooks: whether their URLs may be private (the server's BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS),
   * the retry schedule and timings of their deliveries (tests shorten them).
   */
  webhooks?: WebhookOptions;
  /** Told once of each change found in a series, by the process that recorded it (the webhooks). */
  onChange?: OnChange;
  /** How this process's checker of new series points works (tests shorten its interval). */
  changeChecker?: ChangeCheckerOptions;
}

/** A day: long enough for any benchmark here, short enough that a stuck step does not hold a machine for good. */
export const DEFAULT_MAX_STEP_TIMEOUT_S = 86_400;
