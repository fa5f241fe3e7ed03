import type { PlanCreate } from "@benchwright/contract";
import type { PlanBody } from "../model/plans.js";
import type { PlanProblem } from "./plan-problems.js";

type Targets = PlanBody["targets"];

/**
 * The plan's repetitions at two levels, checked together: `machines` and `runs` (each execution's
 * `repetitions.machines` and `.count`), or a `precision` (with its `budget`) that decides them
 * cell by cell. Each combination that cannot mean one thing is a problem of the plan.
 */
export function checkTwoLevels(body: PlanCreate, targets: Targets): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path: `/body/${path}`, message, code: "validation_failed" });
  if (body.runs !== undefined && body.repetitions !== undefined)
    problem("runs", "goes with machines, not with repetitions: give runs (per machine) or repetitions");
  if (body.precision) {
    for (const field of ["machines", "runs", "repetitions"] as const)
      if (body[field] !== undefined) problem(field, "goes without precision: a precision plan decides the machines and runs itself");
  } else if (body.budget) problem("budget", "goes with precision: a budget is what reaching a precision may spend");
  const many = body.precision ? Math.max(2, body.precision.pilot_machines ?? 3) : (body.machines ?? 1);
  if (many > 1) {
    targets.forEach((t, i) => {
      if (t.class === "local")
        problem(`targets/${i}`, `${t.label} is local, which is one machine: ${many} machines per target need a cloud or existing-vm target`);
    });
  }
  return problems;
}

/** The execution's repetitions each cell of a plan without a precision asks for: its `repetitions`, or its `machines` × `runs`. */
export function cellRepetitions(plan: Pick<PlanBody, "repetitions" | "machines" | "runs">): PlanBody["repetitions"] {
  if (plan.machines === undefined && plan.runs === undefined) return plan.repetitions;
  return { ...(plan.repetitions ?? { count: plan.runs ?? 1 }), ...(plan.machines !== undefined ? { machines: plan.machines } : {}) };
}
