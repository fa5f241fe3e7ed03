import type { EngineLog } from "../engine-log.js";
import type { LogWriter } from "../logs/index.js";
import type { MachineAccess } from "../machines/machine-access.js";
import type { Machine } from "../providers/provider.js";
import type { StepRunner } from "../runner/step-runner.js";
import type { Scrubber } from "../secrets/scrub.js";
import type { Store } from "../store/store.js";
import type { CatalogOf, ExecutionRow } from "../model/executions.js";
import type { StoredMetric } from "../model/metrics.js";
import type { SessionRow } from "../model/sessions.js";
import type { StepRow } from "../model/steps.js";

export interface StepContext {
  execution: ExecutionRow;
  /** Resolves the session's machines, `count` at least where the provider makes them (creating them when needed). */
  machines: (count?: number) => Promise<Machine[]>;
  /** The session's machines as its provider knows them, none made: where a cancelled step is stopped when it had not resolved them itself. */
  known?: () => Promise<Machine[]>;
  /** Seconds; the service type's `step_timeout`, when it sets one. */
  timeoutOverride?: number;
  /** Aborted with a HandBack: stop following, record nothing. Aborted otherwise: the step fails. */
  signal: AbortSignal;
  /** The lease holder: only it may record the step's end. */
  owner: string;
  /** Masks the session's credentials, in every form, in what the step's failure says. */
  scrubber?: Scrubber;
}

/** The rows a step was begun with here: its drive in this process uses them instead of reading them again. */
export interface BegunRows {
  execution: ExecutionRow;
  session: SessionRow;
}

/** What the parts of a step's drive use of the engine. */
export interface StepTools {
  store: Store;
  /** The catalogue of an execution: the definition version it recorded (pinned when its drive began), else the current one. */
  catalog: CatalogOf;
  runner: StepRunner;
  access: MachineAccess;
  log: EngineLog;
  /** Where this process runs parts on its own host (work-place.ts). */
  place: string;
}

/** One attempt under way: its row, its context, the log it writes and its time limit. */
export interface Attempt {
  step: StepRow;
  ctx: StepContext;
  log: LogWriter;
  /** Seconds. */
  timeoutS: number;
}

/** What a step's work gives back: its metrics (run only) and when, by the host's clock, it ended. */
export interface StepWork {
  metrics: StoredMetric[] | null;
  /** Epoch ms; unset when no host reported it (the step then ends when it is recorded). */
  endedAt?: number;
}
