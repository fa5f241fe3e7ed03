import { stepFields } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import type { SessionMachines } from "../machines/session-machines.js";
import type { ExecutionRow, SessionRow, StepKey, StepRow, Store } from "../store/store.js";
import type { StepExecutor } from "./step-executor.js";

/** What a step's drive needs: its execution and session rows, its session's configuration and machines. */
export class StepDriver {
  /** The rows a step was begun with, for this process's worker to drive it with, once (see begunWith). */
  readonly #begun = new Map<string, { execution: ExecutionRow; session: SessionRow }>();

  constructor(private readonly options: { store: Store; machines: SessionMachines; executor: StepExecutor }) {}

  /** Keeps the rows a step was just begun with, for a drive here to use instead of reading them again; returns their removal. */
  begunWith(key: StepKey, rows: { execution: ExecutionRow; session: SessionRow }): () => void {
    this.#begun.set(stepId(key), rows);
    return () => this.#begun.delete(stepId(key));
  }

  /** Follows a step this process's worker claimed, with its session's machines, to its end. */
  async drive(step: StepRow, owner: string, signal: AbortSignal): Promise<StepRow | null> {
    const { store, machines, executor } = this.options;
    const begun = this.#begun.get(stepId(step));
    this.#begun.delete(stepId(step));
    const execution = begun?.execution ?? (await executionRow(store, step.execution_id));
    const session = begun?.session ?? (await store.getSession(execution.session_id))!;
    const { config, scrubber } = machines.settingsOf(session);
    return executor.drive(step, {
      execution,
      machines: (count) => machines.ensure(session, config, signal, stepFields(step, session.id), count),
      timeoutOverride: config.stepTimeoutS,
      signal,
      owner,
      scrubber,
    });
  }
}

/** The execution's row; not_found when there is none. */
export async function executionRow(store: Store, id: string): Promise<ExecutionRow> {
  const row = await store.getExecution(id);
  if (!row) throw new BenchwrightError("not_found", `No execution ${id}`);
  return row;
}

function stepId(key: StepKey): string {
  return `${key.execution_id}/${key.step}/${key.attempt}`;
}
