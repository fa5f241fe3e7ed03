import type { Response } from "express";
import { BenchwrightError, type ProblemExtras } from "@benchwright/engine";
import type { Problem } from "@benchwright/contract";

const TITLES: Record<Problem["code"], string> = {
  validation_failed: "Request validation failed",
  bad_json: "Malformed JSON",
  bad_fields_mask: "Malformed X-Fields mask",
  unsupported_media_type: "Unsupported media type",
  unauthorized: "Unauthorized",
  not_found: "Not found",
  unknown_provider: "Unknown provider configuration",
  unknown_service_type: "Unknown service type",
  unknown_provider_class: "Unknown provider class",
  invalid_configuration: "Invalid provider configuration",
  unknown_tool: "Unknown tool",
  unknown_workload: "Unknown workload",
  wrong_state: "Wrong state",
  session_deleted: "Session deleted",
  step_failed: "Step failed",
  step_timeout: "Step timed out",
  provider_failed: "Provider failed",
  host_key_mismatch: "Host key changed",
  header_too_large: "Request header fields too large",
  unavailable: "Service unavailable",
  range_not_satisfiable: "Range not satisfiable",
  internal: "Internal server error",
};

export function problemOf(error: BenchwrightError, instance?: string): Problem {
  const extras: ProblemExtras = Object.fromEntries(Object.entries(error.extras).filter(([, v]) => v !== undefined));
  return {
    type: `https://benchwright.dev/problems/${error.code.replace(/_/g, "-")}`,
    title: TITLES[error.code],
    status: error.status,
    code: error.code,
    detail: error.detail,
    ...(instance ? { instance } : {}),
    ...extras,
  } as Problem;
}

export function sendProblem(res: Response, problem: Problem): void {
  if (problem.retry_after) res.set("Retry-After", String(problem.retry_after));
  res.status(problem.status).type("application/problem+json").send(JSON.stringify(problem));
}
