import type { CallOptions, ClientContext } from "../client-context.js";
import type { StepAttempt, StepName, StepResult } from "../types.js";

/** Options of prepare and run. */
export interface StepOptions extends CallOptions {
  /** Answer at once (`Prefer: respond-async`) with the step attempt instead of waiting for the step to end. */
  async?: boolean;
}

export interface StepsMethods {
  /** Resolves when the step has ended; with `async: true`, at once with the step attempt (see `waitForStep`). */
  prepare(execId: string, options: StepOptions & { async: true }): Promise<StepAttempt>;
  prepare(execId: string, options?: StepOptions): Promise<StepResult>;
  /** Resolves when the run has ended; with `async: true`, at once with the step attempt (see `waitForStep`). */
  run(execId: string, options: StepOptions & { async: true }): Promise<StepAttempt>;
  run(execId: string, options?: StepOptions): Promise<StepResult>;
  /** One attempt of a step, running or ended. */
  getStep(execId: string, step: StepName, attempt: number, options?: CallOptions): Promise<StepAttempt>;
}

export function stepsMethods({ raw, unwrap, init, fieldsHeader }: ClientContext): StepsMethods {
  const stepHeaders = (options: StepOptions | undefined) => {
    const headers: { "X-Fields"?: string; Prefer?: string } = { ...fieldsHeader(options) };
    if (options?.async) headers.Prefer = "respond-async";
    return headers;
  };
  // Prepare and run: the same call, on their own path; the overloads say what `async` answers.
  const startStep = (path: "/executions/{exec_id}/prepare" | "/executions/{exec_id}/run") => (execId: string, o?: StepOptions) =>
    unwrap<StepResult | StepAttempt>(raw.POST(path, { params: { path: { exec_id: execId }, header: stepHeaders(o) }, ...init(o) }));
  return {
    prepare: startStep("/executions/{exec_id}/prepare") as StepsMethods["prepare"],
    run: startStep("/executions/{exec_id}/run") as StepsMethods["run"],
    getStep: (execId, step, attempt, o) =>
      unwrap(
        raw.GET("/executions/{exec_id}/steps/{step}/{attempt}", {
          params: { path: { exec_id: execId, step, attempt }, header: fieldsHeader(o) },
          ...init(o),
        }),
      ),
  };
}
