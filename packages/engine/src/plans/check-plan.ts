import type { Catalog } from "@benchwright/catalog";
import type { PlanCreate } from "@benchwright/contract";
import type { PlanBody, PlanSchedule } from "../model/plans.js";
import { repetitionPlanOf } from "../results/repetitions.js";
import { checkBenchmarks } from "./plan-benchmarks.js";
import { checkSchedule } from "./plan-schedule.js";
import { planError, problemsOf, type PlanProblem } from "./plan-problems.js";
import { checkTwoLevels } from "./plan-repetitions.js";
import { checkTargets, type TargetLimits } from "./plan-targets.js";

/** The most executions one plan may make: more is a mistake in a matrix more often than a wish. */
export const MAX_PLAN_EXECUTIONS = 10_000;

/**
 * A plan as it will be stored, with its targets expanded, its size counted and its defaults
 * filled in, and its inline configurations by label; or the one 400 that lists every problem.
 */
export function checkPlan(
  body: PlanCreate,
  catalog: Catalog,
  limits: TargetLimits & { scheduleMinIntervalMs?: number },
  now = new Date(),
): { plan: PlanBody; inline: Record<string, unknown>; schedule: PlanSchedule | null; next: Date | null } {
  const problems: PlanProblem[] = [];
  const { targets, expanded, inline, problems: targetProblems } = checkTargets(body.targets, limits);
  const { benchmarks, problems: benchmarkProblems } = checkBenchmarks(body.benchmarks, catalog);
  const { schedule, next, problems: scheduleProblems } = checkSchedule(body.schedule, now, limits.scheduleMinIntervalMs);
  problems.push(...targetProblems, ...benchmarkProblems, ...scheduleProblems);
  try {
    repetitionPlanOf(body.repetitions);
  } catch (e) {
    problems.push(...problemsOf(e, "/body", "/repetitions"));
  }
  problems.push(...checkTwoLevels(body, targets));
  const baseline = baselineOf(body.baseline, expanded, problems);
  const cells = benchmarks.reduce((n, b) => n + b.cells, 0);
  const executions = targets.length * cells;
  if (executions > MAX_PLAN_EXECUTIONS) {
    problems.push({
      path: "/body",
      message: `makes ${executions} executions (${targets.length} targets × ${cells} cells): at most ${MAX_PLAN_EXECUTIONS}`,
      code: "validation_failed",
    });
  }
  if (problems.length) throw planError(problems);
  const plan: PlanBody = {
    targets,
    benchmarks,
    ...(body.repetitions ? { repetitions: body.repetitions } : {}),
    concurrency: { per_target: body.concurrency?.per_target ?? 1, overall: body.concurrency?.overall ?? 4 },
    retries: body.retries ?? 0,
    on_failure: body.on_failure ?? "continue",
    keep_sessions: body.keep_sessions ?? false,
    baseline: baseline ?? "",
    min_difference: body.min_difference ?? 0,
    ...(body.margin !== undefined ? { margin: body.margin } : {}),
    ...(body.warmup !== undefined ? { warmup: body.warmup } : {}),
    ...(body.machines !== undefined ? { machines: body.machines } : {}),
    ...(body.runs !== undefined ? { runs: body.runs } : {}),
    ...(body.precision ? { precision: body.precision } : {}),
    ...(body.budget ? { budget: body.budget } : {}),
    cells,
    executions,
  };
  return { plan, inline, schedule, next };
}

/**
 * The baseline's label: the first target's by default; a label given for a `*` target that
 * stands for one target names that one. A label of a target that could not be used is no
 * further problem: that target's own is listed.
 */
function baselineOf(given: string | undefined, expanded: Map<string, string[]>, problems: PlanProblem[]): string | undefined {
  const all = [...expanded.values()].flat();
  if (given === undefined) return all[0];
  if (all.includes(given)) return given;
  const standsFor = expanded.get(given);
  if (standsFor?.length === 1) return standsFor[0];
  if (standsFor && standsFor.length > 1) {
    problems.push({
      path: "/body/baseline",
      message: `names '${given}', which stands for several targets (${standsFor.join(", ")}): name one`,
      code: "validation_failed",
    });
  } else if (!standsFor) {
    // Without any usable target, their own problems say why: an empty list "()" would say nothing.
    const targets = all.length ? `names no target (${all.join(", ")})` : "names no target that can be used";
    problems.push({ path: "/body/baseline", message: targets, code: "validation_failed" });
  }
  return undefined;
}
