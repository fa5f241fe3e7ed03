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
  /** When the step ended (epoch ms on this machine's clock), by the host's own record; unset when unknown. */
  endedAt?: number;
}
