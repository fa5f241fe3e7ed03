import type { PlanBudget, PlanPrecision } from "@benchwright/contract";
import type { CellPrecision } from "../model/plan-runs.js";
import { allocate, nextStep, type LevelCosts } from "../results/allocation.js";
import { nestedSummary } from "../results/nested-summary.js";
import { studentTQuantile } from "../results/statistics.js";

type Round = CellPrecision["rounds"][number];
export type BudgetUnit = "money" | "machine_hours" | "wall_seconds";

/** What the rounds so far measured and cost: the main metric's values by machine, each level's cost, what was spent, in the budget's unit. */
export interface RoundsSoFar {
  groups: number[][];
  /** What a new machine (its creation, boot and prepare) and a run cost; null when not known yet. */
  costs: LevelCosts | null;
  spent: number | null;
  /** How many machines the target can give in all (an existing-vm type's hosts); null: as many as asked (a cloud). */
  machineLimit: number | null;
}

const PILOT_MACHINES = 3;
const PILOT_RUNS = 3;
const MAX_ROUNDS = 6;

/** The budget's unit and amount (none: machine-hours, unbounded). */
export function budgetOf(budget: PlanBudget | undefined): { unit: BudgetUnit; amount: number } {
  if (budget?.money !== undefined) return { unit: "money", amount: budget.money };
  if (budget?.wall_seconds !== undefined) return { unit: "wall_seconds", amount: budget.wall_seconds };
  return { unit: "machine_hours", amount: budget?.machine_hours ?? Number.POSITIVE_INFINITY };
}

/** The first record of a precision cell: its pilot, on the cell's own execution. */
export function pilotOf(precision: PlanPrecision, budget: PlanBudget | undefined, executionId: string): CellPrecision {
  const machines = precision.pilot_machines ?? PILOT_MACHINES;
  const runs = precision.pilot_runs ?? PILOT_RUNS;
  return {
    asked: precision.relative_half_width,
    reached: null,
    machines: 0,
    runs: 0,
    rounds: [{ execution_id: executionId, machines, first_machine: 0, runs, added: "pilot" }],
    cost: null,
    unit: budgetOf(budget).unit,
    stop: null,
    reason: null,
  };
}

/** The relative half-width of the mean's interval from these machines' values (from the spread between machines). */
export function reachedOf(groups: readonly (readonly number[])[]): number | null {
  const measured = groups.filter((g) => g.length > 0);
  if (measured.length < 2) return null;
  const s = nestedSummary(measured);
  return s.mean === 0 ? null : (s.ci_high - s.ci_low) / 2 / Math.abs(s.mean);
}

type Decision = { stop: NonNullable<CellPrecision["stop"]>; reason: string } | { round: Omit<Round, "execution_id"> };

/**
 * What a precision cell does after a round (Kalibera & Jones 2013): stop when the interval is
 * narrow enough, the budget cannot pay for one more machine or run, the target has no machine
 * left where only machines would help, or the rounds are spent; otherwise the next round, grown
 * towards the counts `allocate` finds cheapest for the precision (within what is left of the
 * budget), adding machines or runs per machine, whichever buys more precision per unit of cost.
 */
export function decideRound(precision: PlanPrecision, budget: PlanBudget | undefined, state: CellPrecision, so: RoundsSoFar): Decision {
  const asked = precision.relative_half_width;
  const reached = reachedOf(so.groups);
  const pct = (x: number) => `±${(x * 100).toFixed(2)}%`;
  if (reached !== null && reached <= asked)
    return { stop: "precision_reached", reason: `the mean's interval is ${pct(reached)}, within the ${pct(asked)} asked for` };
  const { unit, amount } = budgetOf(budget);
  if (state.rounds.length > (precision.max_rounds ?? MAX_ROUNDS))
    return {
      stop: "rounds_exhausted",
      reason: `${state.rounds.length - 1} rounds after the pilot reached ${reached === null ? "no interval" : pct(reached)}, not ${pct(asked)}`,
    };
  const groups = so.groups.filter((g) => g.length > 0);
  if (groups.length < 2) return { stop: "failed", reason: "the pilot measured fewer than 2 machines: the spread between machines is unknown" };
  if (!so.costs) return { stop: "failed", reason: "the target has no price: a budget in money needs its service type's price_per_hour" };
  const s = nestedSummary(groups);
  const components = { between: s.between_variance ?? 0, within: s.within_variance ?? 0, mean: s.mean };
  const m = groups.length;
  const n = Math.max(1, Math.round(groups.reduce((a, g) => a + g.length, 0) / m));
  const left = amount - (so.spent ?? 0);
  const costs = so.costs;
  const machinesLeft = so.machineLimit === null ? Number.POSITIVE_INFINITY : so.machineLimit - m;
  const target = allocate({
    components,
    costs,
    relativeHalfWidth: asked,
    budget: Number.isFinite(amount) ? (so.spent ?? 0) + left : undefined,
    minMachines: 2,
  });
  let level: "machine" | "run";
  let grow: number;
  if (target.machines > m) [level, grow] = ["machine", target.machines - m];
  else if (target.runs > n) [level, grow] = ["run", target.runs - n];
  else {
    // The counts suffice by the estimates, yet the interval is wider: grow by half at the level that buys the more.
    level = nextStep(components, costs, m, n);
    grow = Math.max(1, Math.ceil((level === "machine" ? m : n) / 2));
  }
  if (level === "machine" && machinesLeft <= 0) {
    // Runs alone cannot take the interval below what the machines' own spread leaves.
    const floor = (studentTQuantile(0.975, m - 1) * Math.sqrt(components.between / m)) / Math.abs(components.mean);
    if (floor > asked || components.within <= 0)
      return {
        stop: "machines_exhausted",
        reason: `the target has ${so.machineLimit} machines, and their spread alone leaves ${pct(floor)}: more runs cannot reach ${pct(asked)}`,
      };
    [level, grow] = ["run", Math.max(1, target.runs - n, Math.ceil(n / 2))];
  }
  if (level === "machine") grow = Math.min(grow, machinesLeft);
  // At most double a level per round: the estimates the counts rest on firm up as they grow.
  grow = Math.min(grow, level === "machine" ? m : n);
  const runsOnNew = Math.max(2, target.runs);
  const unitCost = level === "machine" ? costs.machine + runsOnNew * costs.run : m * costs.run;
  const affordable = Number.isFinite(left) ? Math.floor(left / unitCost) : grow;
  grow = Math.min(grow, affordable);
  if (grow < 1)
    return {
      stop: "budget_spent",
      reason: `${fmt(so.spent ?? 0, unit)} of ${fmt(amount, unit)} spent: one more ${level} costs ${fmt(unitCost, unit)}; the interval is ${reached === null ? "unknown" : pct(reached)}`,
    };
  if (level === "machine") return { round: { machines: grow, first_machine: nextFirstMachine(state), runs: runsOnNew, added: "machines" } };
  return { round: { machines: m, first_machine: 0, runs: grow, added: "runs" } };
}

/** The first of the session's machines no round has used yet. */
function nextFirstMachine(state: CellPrecision): number {
  return state.rounds.reduce((end, r) => Math.max(end, r.first_machine + r.machines), 0);
}

function fmt(x: number, unit: BudgetUnit): string {
  if (unit === "wall_seconds") return `${x.toFixed(1)} s`;
  if (unit === "machine_hours") return `${x.toFixed(4)} machine-hours`;
  return x.toFixed(4);
}
