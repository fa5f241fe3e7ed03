import type { Provenance } from "@benchwright/contract";
import type { DescribeStepEnd } from "../model/events.js";
import type { ExecutionState } from "../model/executions.js";
import type { StoredMetric } from "../model/metrics.js";
import type { SessionState } from "../model/sessions.js";
import { SESSION_DELETED, type StepClaim, type StepEnd, type StepKey, type StepKind, type StepRow } from "../model/steps.js";
import { formatTimestamp } from "../time.js";
import { PlanRunCancelled } from "../errors.js";
import type { PlanRunState } from "../model/plan-runs.js";
import type { Db } from "./db.js";
import type { EventAppender } from "./event-appender.js";
import { endOnExecution, moveExecutionReturningBefore } from "./sql/executions-sql.js";
import { heldRunStateOfExecution } from "./sql/plan-runs-sql.js";
import { heldSessionStateOfExecution } from "./sql/sessions-sql.js";
import { json, run } from "./sql/sql.js";
import { endStep, insertStep, nextAttempt, requestCancel, runningSteps, setProvenance, stepByKey, stepsOf } from "./sql/steps-sql.js";

const FAILED_STATE: Record<StepKind, ExecutionState> = { prepare: "prepare_failed", run: "run_failed" };

/** The steps' attempts: each begins and ends together with its execution's state move, in one transaction. */
export class StepsRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
    /** The data of the step.finished event an end appends. */
    private readonly describeEnd: DescribeStepEnd,
    /** Appends a successful run's figures to their series, in the end's transaction (so no point is lost). */
    private readonly recordPoints?: (tx: Db, executionId: string, started: Date, metrics: StoredMetric[]) => Promise<void>,
  ) {}

  /**
   * Moves the execution into the step's transitional state and opens the step's next attempt,
   * in one transaction: a crash can never leave the one without the other. Null when the
   * execution was not in one of `from` (another step holds it, or the state forbids it), or its
   * session is no longer active: the session's row is held (shared) until the step is in, so
   * that a DELETE's move to `deleting` comes either before (no step) or after (it sees the step).
   * A cell of a plan run being cancelled begins none (PLAN_RUN_CANCELLED): the run's row is held
   * likewise, so a cancel answered before this begins is seen here, whichever server wrote it.
   */
  async begin(
    executionId: string,
    step: StepKind,
    move: { from: ExecutionState[]; to: ExecutionState },
    started: Date,
    logFileOf: (attempt: number) => string,
    /** The lease to begin it with: a worker of the process that begins it follows it at once, without claiming it after. */
    claim?: StepClaim,
  ): Promise<StepRow | null> {
    return this.db.transaction(async (tx) => {
      if (!(await sessionActive(tx, executionId))) return null;
      const [planRun] = await run<{ state: PlanRunState }>(tx, heldRunStateOfExecution(executionId));
      if (planRun && (planRun.state === "cancelling" || planRun.state === "cancelled")) throw new PlanRunCancelled(executionId);
      const [before] = await run<{ state: ExecutionState; session_id: string }>(tx, moveExecutionReturningBefore(executionId, move.from, move.to));
      if (!before) return null;
      const [{ next }] = await run<{ next: number }>(tx, nextAttempt(executionId, step));
      const attempt = Number(next);
      const [row] = await run<StepRow>(tx, insertStep({ execution_id: executionId, step, attempt }, started, logFileOf(attempt), claim));
      const about = { session_id: before.session_id, execution_id: executionId };
      await this.events.appendAll(
        [
          { type: "execution.state", ...about, data: { state: move.to, previous: before.state } },
          { type: "step.started", ...about, data: { step, attempt, started: formatTimestamp(new Date(row.started)) } },
        ],
        tx,
      );
      return row;
    });
  }

  /**
   * Records how a step attempt ended and moves the execution on, in one transaction: the
   * step's row, the execution's state and (for a successful run) its metrics change together
   * or not at all. Only a step still `running` is finished, so recording twice is harmless.
   * A success of a step whose session is no longer active is recorded as a failure: its
   * session's DELETE began while it ran, and its work is being removed (see SESSION_DELETED).
   * The step's row as it ended, and whether its session is still active; null when it had
   * ended already (or another owner holds it).
   */
  async end(
    key: StepKey,
    result: StepEnd,
    move: { from: ExecutionState; to: ExecutionState },
    owner?: string,
  ): Promise<(StepRow & { session_active: boolean }) | null> {
    return this.db.transaction(async (tx) => {
      // Held (shared) to the end, as begin does: a DELETE's move to `deleting` comes before or after the whole end.
      const session_active = await sessionActive(tx, key.execution_id);
      if (!session_active && result.state === "succeeded") {
        result = {
          state: "failed",
          duration: result.duration,
          exit_code: null,
          error: SESSION_DELETED,
          metrics: null,
          error_code: "step_failed",
        };
        move = { from: move.from, to: FAILED_STATE[key.step] };
      }
      const [finished] = await run<StepRow>(tx, endStep(key, result, owner));
      if (!finished) return null;
      const metrics = key.step === "run" && result.state === "succeeded" ? json(result.metrics ?? []) : null;
      const [row] = await run<{ session_id: string; moved: boolean }>(tx, endOnExecution(key.execution_id, move.from, move.to, metrics));
      if (metrics !== null && this.recordPoints && result.metrics?.length)
        await this.recordPoints(tx, key.execution_id, new Date(finished.started), result.metrics);
      const about = { session_id: row.session_id, execution_id: key.execution_id };
      await this.events.appendAll(
        [
          { type: "step.finished", ...about, data: this.describeEnd(key.step, key.attempt, new Date(finished.started), result) },
          ...(row.moved ? [{ type: "execution.state" as const, ...about, data: { state: move.to, previous: move.from } }] : []),
        ],
        tx,
      );
      return { ...finished, session_active };
    });
  }

  /**
   * Records a cancel request on a running attempt, for whichever process follows it to read
   * (at its next lease renewal, or when it takes the step up). The row as it is now; null when
   * the attempt had ended.
   */
  async requestCancel(key: StepKey, reason: string): Promise<StepRow | null> {
    return (await run<StepRow>(this.db, requestCancel(key, reason)))[0] ?? null;
  }

  /** Records what produces a running attempt's figures (see StepRow.provenance). */
  async setProvenance(key: StepKey, provenance: Provenance): Promise<void> {
    await run(this.db, setProvenance(key, provenance));
  }

  async get(key: StepKey): Promise<StepRow | undefined> {
    return (await run<StepRow>(this.db, stepByKey(key)))[0];
  }

  async list(executionIds: string[]): Promise<StepRow[]> {
    return run<StepRow>(this.db, stepsOf(executionIds));
  }

  /** Steps recorded as running, of every execution or of these. */
  async running(executionIds?: string[]): Promise<StepRow[]> {
    return run<StepRow>(this.db, runningSteps(executionIds));
  }
}

/** Whether the execution's session is active, its row held (shared) until the transaction ends. */
async function sessionActive(tx: Db, executionId: string): Promise<boolean> {
  const [row] = await run<{ state: SessionState }>(tx, heldSessionStateOfExecution(executionId));
  return row?.state === "active";
}
