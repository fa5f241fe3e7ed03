import { BenchwrightProblemError, type Problem } from "@benchwright/sdk";
import { describeError } from "./api.js";
import { h } from "./dom.js";

/** The problem a failed call answered, when it answered one. */
export function problemOf(error: unknown): Problem | undefined {
  return error instanceof BenchwrightProblemError ? error.problem : undefined;
}

/**
 * The messages of a 400's failing fields that name a member of the request body, by its name:
 * `/body/params/seconds` → `seconds` for `prefix` `/body/params/` (JSON Pointer escapes undone).
 */
export function fieldErrors(problem: Problem | undefined, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of problem?.errors ?? []) {
    if (!e.path.startsWith(prefix)) continue;
    const name = e.path.slice(prefix.length).split("/")[0]!.replace(/~1/g, "/").replace(/~0/g, "~");
    out.set(name, out.has(name) ? `${out.get(name)}; ${e.message}` : e.message);
  }
  return out;
}

/**
 * A failed call, as the user reads it: the problem's status and title, its detail, and what the
 * problem lists (each failing field, the valid choices, a failed step's output).
 */
export function problemBox(error: unknown): HTMLElement {
  const problem = problemOf(error);
  if (!problem) return h("div", { class: "problem", role: "alert", "data-testid": "problem" }, describeError(error));
  return h(
    "div",
    { class: "problem", role: "alert", "data-testid": "problem", "data-code": problem.code, "data-status": problem.status },
    h("strong", {}, `${problem.status} ${problem.title}`),
    problem.detail ? h("p", {}, problem.detail) : null,
    problem.errors?.length
      ? h(
          "ul",
          {},
          problem.errors.map((e) => h("li", {}, h("code", {}, e.path), ` ${e.message}`)),
        )
      : null,
    problem.choices?.length
      ? h(
          "p",
          {},
          "Choices: ",
          problem.choices.flatMap((c, i) => [i ? ", " : "", h("code", {}, c)]),
        )
      : null,
    problem.output_tail ? h("pre", { class: "tail" }, problem.output_tail) : null,
  );
}
