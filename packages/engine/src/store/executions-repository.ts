import type { ExecutionRow, ExecutionState, ExecutionWithSteps, NewExecution } from "../model/executions.js";
import type { VmRecord } from "../model/machines.js";
import type { SessionRow } from "../model/sessions.js";
import type { StepSummary } from "../model/steps.js";
import type { Db } from "./db.js";
import type { EventAppender } from "./event-appender.js";
import type { ExecutionWhere } from "./list-where.js";
import {
  executionById,
  executionsOf,
  executionsWithSteps,
  executionWithSession,
  insertExecution,
  lockedExecutionState,
  moveExecution,
  setExecEnv,
} from "./sql/executions-sql.js";
import { run } from "./sql/sql.js";

/** A session's row as row_to_json gives it: its times as text. */
type SessionJson = Omit<SessionRow, "created" | "deleted_at"> & { created: string; deleted_at: string | null };

/** The executions: their rows, their state moves (outside steps), and their views. */
export class ExecutionsRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  async insert(row: NewExecution): Promise<void> {
    await this.db.transaction(async (tx) => {
      await run(tx, insertExecution(row));
      const data = {
        tool: row.tool_id,
        workload: row.workload_id,
        params: row.params ?? {},
        ...(row.repetitions ? { repetitions: row.repetitions } : {}),
      };
      await this.events.appendAll([{ type: "execution.created", session_id: row.session_id, execution_id: row.id, data }], tx);
    });
  }

  async get(id: string): Promise<ExecutionRow | undefined> {
    return (await run<ExecutionRow>(this.db, executionById(id)))[0];
  }

  /** An execution and its session, in one query. */
  async getWithSession(id: string): Promise<{ execution: ExecutionRow; session: SessionRow } | undefined> {
    const [row] = await run<ExecutionRow & { session: SessionJson | string }>(this.db, executionWithSession(id));
    if (!row) return undefined;
    const { session: s, ...execution } = row;
    const session: SessionJson = typeof s === "string" ? JSON.parse(s) : s;
    return {
      execution,
      session: {
        ...session,
        created: new Date(session.created),
        deleted_at: session.deleted_at === null ? null : new Date(session.deleted_at),
      },
    };
  }

  async list(sessionIds?: string[]): Promise<ExecutionRow[]> {
    return run<ExecutionRow>(this.db, executionsOf(sessionIds));
  }

  /** The atomic state move of the state machine: null when the execution was not in one of `from`. */
  async transition(id: string, from: ExecutionState[], to: ExecutionState): Promise<ExecutionRow | null> {
    return this.db.transaction(async (tx) => {
      // Locked first, so that the state it had is the one the update replaces.
      const [before] = await run<{ state: ExecutionState }>(tx, lockedExecutionState(id));
      const [row] = await run<ExecutionRow>(tx, moveExecution(id, from, to));
      if (!row) return null;
      await this.events.appendAll([{ type: "execution.state", session_id: row.session_id, execution_id: id, data: { state: to, previous: before.state } }], tx);
      return row;
    });
  }

  async setExecEnv(id: string, env: { vms: VmRecord[] }): Promise<void> {
    await run(this.db, setExecEnv(id, env));
  }

  /**
   * Executions with their steps, in creation order: those `where` selects (one, those of some
   * sessions, those that match a list's filters, a page of them), or all. The steps come
   * aggregated in the execution's row, so that the answer is one query whatever its size.
   */
  async withSteps(where: ExecutionWhere | "all"): Promise<ExecutionWithSteps[]> {
    const rows = await run<ExecutionWithSteps & { steps: Array<StepSummary & { started: string }> }>(this.db, executionsWithSteps(where));
    for (const row of rows) for (const step of row.steps) (step as StepSummary).started = new Date(step.started);
    return rows;
  }
}
