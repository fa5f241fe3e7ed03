/** What the runner needs to run one step on a machine. */
export interface StepSpec {
  /** The step's own directory on the target, e.g. `~/.benchwright/<exec-id>/run-2`. */
  dir: string;
  /** The whole bash script of the step. */
  script: string;
  /** Extra environment for the script (names and values are quoted by the runner). */
  env?: Record<string, string>;
  /** Past this the remote process group is killed and the step fails saying so. */
  timeoutMs: number;
  /** Samples the machine every `intervalMs` beside the step, into the dir's telemetry.log (see telemetry-sampler.ts). */
  telemetry?: { intervalMs: number };
}

/** Enough to find a started step again after a lost connection or a restart. */
export interface StepHandle {
  dir: string;
  /** Process group id of the detached step on the target. */
  pgid: number;
}

export interface StepOutcome {
  /** The script's exit code; null when it was killed. */
  exitCode: number | null;
  timedOut: boolean;
  /** Bytes of log followed in all (the offset to resume from). */
  logBytes: number;
  /**
   * When the step ended (epoch ms on this machine's clock), by the host's own record: now
   * minus how long ago the host wrote step.rc by its own clock, so that neither clock skew
   * nor time spent unable to reach the host moves it. Unset when unknown.
   */
  endedAt?: number;
  /** When the step started, likewise (endedAt minus the run time the host measured). */
  startedAt?: number;
  /**
   * The deadline passed while the host could not be reached: the step could not be killed
   * and may still run there. The log delivered is what was read before the host went away.
   */
  unreachable?: boolean;
  /** The step's telemetry.log as its follower sent it with the end (FollowOptions.telemetry); unset when it did not. */
  telemetry?: string;
}
