// What a StepRunner is told: its retry and polling times, and how one step is followed.
import type { StepHandle } from "./step.js";

export interface StepRunnerOptions {
  /**
   * Waits between attempts to reach a host that went away: doubling from `reattachDelayMs`
   * (default 500 ms) up to `maxReattachDelayMs` (default 15 s). The runner keeps trying for
   * as long as the step's deadline allows, whatever the number of attempts: the outcome of
   * a step is what its host recorded, and the host keeps it.
   */
  reattachDelayMs?: number;
  maxReattachDelayMs?: number;
  /**
   * After the deadline, how long to keep trying to reach the host to stop the step and read
   * what it left; default 60 s. Past it the outcome says the host was unreachable.
   */
  afterDeadlineMs?: number;
  /** Time between TERM and KILL when a step is killed; default 3 s. */
  killGraceSeconds?: number;
  /**
   * How often a follower looks for the end of a step where nothing tells it: re-attached
   * after a drop or a restart, or on a host without GNU tail (where it is also how often the
   * log is read); default 100 ms. The follower that launched a step is told of its end.
   */
  pollIntervalMs?: number;
}

export interface FollowOptions {
  /** Bytes of step.log already delivered: following resumes right after them. */
  fromOffset: number;
  /** Receives the log in order, each byte once; called synchronously as bytes arrive. */
  onData(chunk: Buffer): void;
  /** Stops following (the step goes on): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Epoch ms past which the step's process group is killed and the outcome says timedOut. */
  deadline: number;
  /** Have the follower send the step's telemetry.log with its end (StepOutcome.telemetry). */
  telemetry?: boolean;
  /** Told the step's handle as soon as the host says it launched it (or found it launched). */
  onLaunched?: (handle: StepHandle) => void;
}
