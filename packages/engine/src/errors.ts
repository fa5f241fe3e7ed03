import type { ProblemCode } from "@benchwright/contract";

const STATUS: Record<ProblemCode, number> = {
  validation_failed: 400,
  bad_json: 400,
  bad_fields_mask: 400,
  unsupported_media_type: 415,
  unauthorized: 401,
  not_found: 404,
  unknown_provider: 400,
  unknown_service_type: 400,
  unknown_provider_class: 400,
  invalid_configuration: 400,
  unknown_tool: 400,
  unknown_workload: 400,
  wrong_state: 409,
  session_deleted: 409,
  step_failed: 502,
  step_timeout: 502,
  provider_failed: 502,
  host_key_mismatch: 502,
  header_too_large: 431,
  unavailable: 503,
  range_not_satisfiable: 416,
  internal: 500,
};

/** Extra members of the problem document (RFC 9457 extension members). */
export interface ProblemExtras {
  choices?: string[];
  state?: string;
  exit_code?: number | null;
  output_tail?: string;
  execution_id?: string;
  step?: string;
  attempt?: number;
  errors?: Array<{ path: string; message: string }>;
  /** Seconds, for `unavailable`: sent as the Retry-After header too. */
  retry_after?: number;
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
    this.status = STATUS[code];
  }
}

export function isBenchwrightError(e: unknown): e is BenchwrightError {
  return e instanceof BenchwrightError;
}
