import type { Catalog } from "@benchwright/catalog";
import type { StepResult } from "@benchwright/contract";
import { BenchwrightError, isBenchwrightError, type ProblemExtras } from "../errors.js";
import type { LogWriter } from "../logs/index.js";
import type { Machine } from "../providers/provider.js";
import type { StepOutcome } from "../runner/step.js";
import { isLocalStorageFull, storageFullReason } from "../storage-full.js";
import type { ExecutionRow } from "../model/executions.js";
import type { StoredMetric } from "../model/metrics.js";
import type { StepKind, StepRow } from "../model/steps.js";
import { formatDuration, formatTimestamp } from "../time.js";
import { TRANSITIONS } from "./transitions.js";

/** How much of a failed step's output its problem carries. */
export const TAIL_BYTES = 2048;
const PARSE_WINDOW_BYTES = 8 * 1024 * 1024;

export interface PartEnd {
  kind: StepKind;
  execution: ExecutionRow;
  machine: Machine;
  outcome: StepOutcome;
  /** Seconds. */
  timeoutS: number;
  log: LogWriter;
  /** Where this part's output begins in the step's log. */
  logStart: number;
  /** The part's role label, when it has one. */
  label?: string;
}

/** The metrics of a machine's part of a step, or the error that says why it failed. */
export function judge(catalog: Catalog, part: PartEnd): StoredMetric[] {
  const { kind, execution, machine, outcome, timeoutS, label } = part;
  const on = label ? `${machine.id} (role ${label})` : machine.id;
  if (outcome.unreachable) {
    throw new BenchwrightError(
      "step_timeout",
      `${kind} of ${execution.tool_id}/${execution.workload_id} on ${on} passed its time limit of ${timeoutS} s while ${machine.ip} could not be reached; it was not killed and may still be running`,
      { exit_code: null },
    );
  }
  if (outcome.timedOut) {
    throw new BenchwrightError(
      "step_timeout",
      `${kind} of ${execution.tool_id}/${execution.workload_id} on ${on} passed its time limit of ${timeoutS} s and was killed`,
      {
        exit_code: null,
      },
    );
  }
  if (outcome.exitCode !== 0) {
    throw new BenchwrightError(
      "step_failed",
      `${kind} of ${execution.tool_id}/${execution.workload_id} on ${on} exited with code ${outcome.exitCode ?? "none (killed)"}`,
      {
        exit_code: outcome.exitCode,
      },
    );
  }
  if (kind === "run") {
    // The parser reads the tail of this machine's part of the log: enough for any tool's summary,
    // bounded so that a chatty workload cannot fill the server's memory.
    const output = part.log.tail(PARSE_WINDOW_BYTES, part.logStart);
    const found = catalog.parse(execution.tool_id, execution.workload_id, output);
    if (found.length === 0) {
      throw new BenchwrightError("step_failed", `run of ${execution.tool_id}/${execution.workload_id} on ${on} exited 0, but its output holds no metrics`, {
        exit_code: 0,
      });
    }
    return found.map((m) => ({ ...m, vm: machine.id }));
  }
  return [];
}

/** Any failure of a step becomes a problem that names the step and carries the output's tail. */
export function asStepError(e: unknown, kind: StepKind, execution: ExecutionRow, attempt: number, log: LogWriter | undefined): BenchwrightError {
  const tail = log?.tail(TAIL_BYTES) ?? "";
  const base = isBenchwrightError(e)
    ? e
    : isLocalStorageFull(e)
      ? // However the step did on its host, what it said could not be kept: the operator's to fix, and then the step's to run again.
        new BenchwrightError(
          "insufficient_storage",
          `${kind} of ${execution.tool_id}/${execution.workload_id}: its log cannot be written, the server's storage is full (${storageFullReason(e)}); free space in its data directory and run it again`,
          {},
          { cause: e },
        )
      : new BenchwrightError("step_failed", `${kind} of ${execution.tool_id}/${execution.workload_id} failed: ${(e as Error).message}`, {}, { cause: e });
  return new BenchwrightError(base.code, base.detail, {
    ...base.extras,
    exit_code: base.extras.exit_code ?? null,
    output_tail: tail,
    execution_id: execution.id,
    step: kind,
    attempt,
  });
}

/** The answer to a finished step: its start and duration, or the problem it ended with. */
export function stepAnswer(step: StepRow): StepResult {
  const t = TRANSITIONS[step.step];
  if (step.state === "succeeded") return { started: formatTimestamp(new Date(step.started)), duration: formatDuration(step.duration ?? 0) };
  const extras = (step.error_extras ?? {}) as ProblemExtras;
  throw new BenchwrightError((step.error_code as BenchwrightError["code"] | null) ?? "step_failed", step.error ?? `${step.step} failed`, {
    ...extras,
    exit_code: step.exit_code,
    execution_id: step.execution_id,
    step: step.step,
    attempt: step.attempt,
    state: t.failed,
  });
}
