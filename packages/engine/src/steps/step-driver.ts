import { stepFields } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import type { SessionMachines } from "../machines/session-machines.js";
import type { Store } from "../store/store.js";
import type { ExecutionRow } from "../model/executions.js";
import type { StepRow } from "../model/steps.js";
import type { BegunRows } from "./step-attempt.js";
import type { StepExecutor } from "./step-executor.js";

/** What a step's drive needs: its execution and session rows, its session's configuration and machines. */
export class StepDriver {
  constructor(private readonly options: { store: Store; machines: SessionMachines; executor: StepExecutor }) {}

  /**
   * Follows a step this process's worker claimed, with its session's machines, to its end:
   * with the rows it was begun with when it was begun here (what a step uses of them never changes).
   */
  async drive(step: StepRow, owner: string, signal: AbortSignal, begun?: BegunRows): Promise<StepRow | null> {
    const { store, machines, executor } = this.options;
    const execution = begun?.execution ?? (await executionRow(store, step.execution_id));
    const session = begun?.session ?? (await store.sessions.get(execution.session_id))!;
    const { config, scrubber } = machines.settingsOf(session);
    return executor.drive(step, {
      execution,
      machines: (count) => machines.ensure(session, config, { signal, about: stepFields(step, session.id), count }),
      // A cloud's machines are known by making them ready: only when the step had launched on one (they exist, none is made).
      known: () =>
        config.class !== "cloud"
          ? machines.known(config, machines.context(session, config, stepFields(step, session.id)))
          : step.machine_id
            ? machines.ensure(session, config, { about: stepFields(step, session.id) })
            : Promise.resolve([]),
      timeoutOverride: config.stepTimeoutS,
      signal,
      owner,
      scrubber,
    });
  }
}

/** The execution's row; not_found when there is none. */
export async function executionRow(store: Store, id: string): Promise<ExecutionRow> {
  const row = await store.executions.get(id);
  if (!row) throw new BenchwrightError("not_found", `No execution ${id}`);
  return row;
}
