import type { BenchwrightClient, CallOptions } from "./client.js";
import type { Execution, ExecutionState, StepAttempt, StepResult } from "./types.js";

export interface PrepareAndRunResult {
  prepare: StepResult;
  run: StepResult;
}

/** Prepares then runs an execution; a failed step throws BenchwrightProblemError (`step_failed`). */
export async function prepareAndRun(client: BenchwrightClient, execId: string, options?: CallOptions): Promise<PrepareAndRunResult> {
  const prepare = await client.prepare(execId, options);
  const run = await client.run(execId, options);
  return { prepare, run };
}

export interface WaitForStateOptions {
  /** Pause between polls; 1000 ms by default. */
  intervalMs?: number;
  /** Give up after this long; 5 minutes by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Thrown by {@link waitForState} when the execution has not reached a wanted state in time. */
export class WaitForStateTimeoutError extends Error {
  override readonly name = "WaitForStateTimeoutError";
  constructor(
    readonly execution: Execution,
    readonly states: readonly ExecutionState[],
  ) {
    super(`execution ${execution.id} is ${execution.state} after the timeout; waited for ${states.join(", ")}`);
  }
}

/**
 * Polls getExecution until the execution is in one of `states`. Include the failure
 * states (`prepare_failed`, `run_failed`) to stop on them too.
 */
export async function waitForState(
  client: BenchwrightClient,
  execId: string,
  states: ExecutionState | readonly ExecutionState[],
  { intervalMs = 1000, timeoutMs = 300_000, signal }: WaitForStateOptions = {},
): Promise<Execution> {
  const wanted: readonly ExecutionState[] = typeof states === "string" ? [states] : states;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const execution = await client.getExecution(execId, { signal });
    if (wanted.includes(execution.state)) return execution;
    if (Date.now() + intervalMs > deadline) throw new WaitForStateTimeoutError(execution, wanted);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    signal?.throwIfAborted();
  }
}

export interface WaitForStepOptions {
  /** Pause between polls; 500 ms by default. */
  intervalMs?: number;
  /** Give up after this long (the step goes on); unlimited by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Polls a step attempt (as `prepare(id, { async: true })` returns it) until it has ended,
 * and returns it: `state` says `succeeded` or `failed` (then `error` says why).
 */
export async function waitForStep(
  client: BenchwrightClient,
  attempt: Pick<StepAttempt, "execution_id" | "step" | "attempt">,
  { intervalMs = 500, timeoutMs = Infinity, signal }: WaitForStepOptions = {},
): Promise<StepAttempt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await client.getStep(attempt.execution_id, attempt.step, attempt.attempt, { signal });
    if (now.state !== "running") return now;
    if (Date.now() + intervalMs > deadline)
      throw new Error(`${attempt.step} ${attempt.attempt} of execution ${attempt.execution_id} is still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    signal?.throwIfAborted();
  }
}
