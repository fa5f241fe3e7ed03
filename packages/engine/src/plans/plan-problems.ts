import type { ProblemCode } from "@benchwright/contract";
import { BenchwrightError, isBenchwrightError } from "../errors.js";

/** One thing wrong with a plan: where in the request, what, and the catalogue's code for its kind. */
export interface PlanProblem {
  path: string;
  message: string;
  code: ProblemCode;
}

/**
 * A refusal of a check the plan shares with sessions and executions, as problems of the plan
 * at `at` (`/body/targets/0`): the fields it lists (their `/body` or `/config` under `at`), or
 * itself at `at` plus `field`.
 */
export function problemsOf(e: unknown, at: string, field = ""): PlanProblem[] {
  if (!isBenchwrightError(e)) throw e;
  const errors = e.extras.errors;
  if (errors?.length) return errors.map((x) => ({ path: at + x.path.replace(/^\/body/, ""), message: x.message, code: e.code }));
  return [{ path: at + field, message: e.detail, code: e.code }];
}

/**
 * The one 400 of a plan that cannot be used: every problem, in `errors` for programs and in the
 * detail for people. Its code is the problems' when they share one, `validation_failed` for a mix.
 */
export function planError(problems: readonly PlanProblem[]): BenchwrightError {
  const codes = new Set(problems.map((p) => p.code));
  const code = codes.size === 1 ? problems[0].code : "validation_failed";
  const detail = `The plan cannot be used: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`;
  return new BenchwrightError(code, detail, { errors: problems.map(({ path, message }) => ({ path, message })) });
}
