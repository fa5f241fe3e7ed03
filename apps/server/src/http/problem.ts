import type { Response } from "express";
import type { BenchwrightError, ProblemExtras } from "@benchwright/engine";
import { PROBLEMS, type Problem } from "@benchwright/contract";

/**
 * The problem document of an error. `message` repeats `detail` because clients of the
 * Benchmarking Suite read `message` (its error bodies were `{message}`, and a failed
 * command's `{message, stdout, stderr}`).
 */
export function problemOf(error: BenchwrightError, instance?: string): Problem {
  const extras: ProblemExtras = Object.fromEntries(Object.entries(error.extras).filter(([, v]) => v !== undefined));
  return {
    type: `https://benchwright.dev/problems/${error.code.replace(/_/g, "-")}`,
    title: PROBLEMS[error.code]?.title ?? PROBLEMS.internal.title,
    status: error.status,
    code: error.code,
    detail: error.detail,
    message: error.detail,
    ...(instance ? { instance } : {}),
    ...extras,
  } as Problem;
}

export function sendProblem(res: Response, problem: Problem): void {
  // The audit log records the code of a refused request (http/audit.ts).
  res.locals.problemCode = problem.code;
  if (problem.retry_after) res.set("Retry-After", String(problem.retry_after));
  res.status(problem.status).type("application/problem+json").send(JSON.stringify(problem));
}
