import type { Machine } from "../providers/provider.js";

/** What deleting a session asks of the steps of its executions. */
export interface SessionSteps {
  /** Ends the steps of these executions that this process follows. */
  stopExecutions(executionIds: string[]): Promise<void>;
  /** Kills what still runs in the executions' work dirs on the session's machines and removes the dirs; `failed` hears of each machine it could not clean. */
  removeWorkDirs(sessionId: string, machines: Machine[], executionIds: string[], failed: (machine: Machine, e: Error) => void): Promise<void>;
  /** Ends as failed, with `reason`, the steps of these executions still recorded as running (nobody follows them any more). */
  abandon(executionIds: string[], reason: string): Promise<void>;
  /** Waits (at most `maxMs`) until no live owner follows a step of these executions. */
  waitEnded(executionIds: string[], maxMs: number): Promise<void>;
}
