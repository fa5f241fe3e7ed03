import { PROBLEMS, type components, type ProblemCode } from "@benchwright/contract";

type ParamDeclarationView = components["schemas"]["ParamDeclaration"];

/** Extra members of the problem document (RFC 9457 extension members). */
export interface ProblemExtras {
  choices?: string[];
  state?: string;
  exit_code?: number | null;
  /** The end of a failed step's output, stdout and stderr interleaved as written (its log). */
  output_tail?: string;
  /** The end of a failed step's stdout alone; the Benchmarking Suite's clients read it. */
  stdout?: string;
  /** The end of a failed step's stderr alone. */
  stderr?: string;
  execution_id?: string;
  step?: string;
  attempt?: number;
  errors?: Array<{ path: string; message: string }>;
  /** The parameters a workload declares, when a request's `params` do not fit them. */
  parameters?: ParamDeclarationView[];
  /** Seconds, for `unavailable`: sent as the Retry-After header too. */
  retry_after?: number;
  /** When the session was deleted, for `session_gone`. */
  deleted?: string;
}

/**
 * The one error class of the engine and the server: a stable code from the contract's
 * catalogue, the HTTP status it maps to, and a detail safe to show (never a secret).
 *
 * @example throw new BenchwrightError("unknown_tool", "No tool 'sysbenc'", { choices: ["idle", "sysbench"] })
 */
export class BenchwrightError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = "BenchwrightError";
    // The contract's catalogue; a code it does not list is caught by its test, and says 500 meanwhile.
    this.status = PROBLEMS[code]?.status ?? 500;
  }
}

export function isBenchwrightError(e: unknown): e is BenchwrightError {
  return e instanceof BenchwrightError;
}

/** A step refused because its execution is a cell of a plan run that was cancelled: its driver ends the cell as cancelled. */
export class PlanRunCancelled extends BenchwrightError {
  constructor(executionId: string) {
    super("wrong_state", `Execution ${executionId} is a cell of a plan run that was cancelled: it begins no step`);
  }
}
