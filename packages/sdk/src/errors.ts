import { PROBLEMS } from "./generated/problems.js";
import type { Problem, ProblemCode } from "./types.js";

// Used only when a body is not a Problem (a proxy's HTML page, an empty body), for the
// statuses whose code the contract's catalogue makes unambiguous (one code only).
const CODE_BY_STATUS: Partial<Record<number, ProblemCode>> = (() => {
  const codes = new Map<number, ProblemCode[]>();
  for (const [code, { status }] of Object.entries(PROBLEMS) as Array<[ProblemCode, { status: number }]>) {
    codes.set(status, [...(codes.get(status) ?? []), code]);
  }
  return Object.fromEntries([...codes].filter(([, c]) => c.length === 1).map(([status, [code]]) => [status, code]));
})();

function isProblem(body: unknown): body is Problem {
  if (typeof body !== "object" || body === null) return false;
  const p = body as Record<string, unknown>;
  return typeof p.type === "string" && typeof p.title === "string" && typeof p.status === "number" && typeof p.code === "string";
}

/**
 * Thrown by the convenience methods of the client when the server answers 4xx or 5xx.
 * `problem` is the RFC 9457 body; `code` is its stable, machine-readable code.
 *
 * @example
 * try {
 *   await bw.getSession(id);
 * } catch (err) {
 *   if (err instanceof BenchwrightProblemError && err.code === "not_found") return undefined;
 *   throw err;
 * }
 */
export class BenchwrightProblemError extends Error {
  override readonly name = "BenchwrightProblemError";
  readonly problem: Problem;
  readonly status: number;
  readonly code: ProblemCode;
  readonly response: Response;

  constructor(problem: Problem, response: Response) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.problem = problem;
    this.status = response.status;
    this.code = problem.code;
    this.response = response;
  }

  /** Wraps an error body; a body that is not a Problem is described by a synthesized one. */
  static from(body: unknown, response: Response): BenchwrightProblemError {
    if (isProblem(body)) return new BenchwrightProblemError(body, response);
    const problem: Problem = {
      type: "about:blank",
      title: response.statusText || `HTTP ${response.status}`,
      status: response.status,
      code: CODE_BY_STATUS[response.status] ?? "internal",
    };
    if (typeof body === "string" && body.length > 0) problem.detail = problem.message = body.slice(0, 500);
    return new BenchwrightProblemError(problem, response);
  }
}
