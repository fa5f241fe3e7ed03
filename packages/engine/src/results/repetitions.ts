import type { components } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import type { RepetitionPlan } from "../model/executions.js";
import type { StoredMetric } from "../model/metrics.js";
import { metricKey } from "./comparison.js";
import { summarize } from "./statistics.js";

type Metric = components["schemas"]["Metric"];
type RepetitionsRequest = NonNullable<components["schemas"]["ExecutionCreate"]["repetitions"]>;

const DEFAULT_MIN = 3;
const DEFAULT_MAX = 10;

/**
 * The plan of an execution's runs from its creation payload: `count` times, or until the main
 * metric's coefficient of variation is at most `until_cv` (from `min`, 3 by default, to `max`,
 * 10 by default). The contract checks each field; the rules between fields are checked here.
 */
export function repetitionPlanOf(request: RepetitionsRequest | undefined): RepetitionPlan | null {
  if (request === undefined) return null;
  const { count, until_cv, min, max, machines, first_machine } = request;
  // Where the machines are asked for, the plan is kept even for one run: it says which machines.
  const on = { ...(machines !== undefined ? { machines } : {}), ...(first_machine ? { first_machine } : {}) };
  const asked = Object.keys(on).length > 0;
  const fail = (field: string, message: string): never => {
    throw new BenchwrightError("validation_failed", `repetitions.${field} ${message}`, {
      errors: [{ path: `/body/repetitions/${field}`, message }],
    });
  };
  if (count !== undefined) {
    if (until_cv !== undefined) fail("until_cv", "goes with min and max, not with count: give count (a fixed number of runs) or until_cv");
    if (min !== undefined || max !== undefined) fail(min !== undefined ? "min" : "max", "goes with until_cv, not with count");
    return count === 1 && !asked ? null : { count, ...on };
  }
  if (until_cv === undefined) {
    if (asked && min === undefined && max === undefined) return { count: 1, ...on };
    return fail("count", "or until_cv is required");
  }
  const plan = { until_cv, min: min ?? Math.min(DEFAULT_MIN, max ?? DEFAULT_MIN), max: max ?? Math.max(DEFAULT_MAX, min ?? 0), ...on };
  if (plan.min > plan.max) fail("min", `is ${plan.min}: must be at most max (${plan.max})`);
  return plan;
}

/**
 * Whether a run that repeats until its figures settle may stop: the coefficient of variation of
 * every figure of its main metric (the first one it measured; per tag set and machine) is at
 * most `cv`.
 */
export function mainMetricSettled(metrics: StoredMetric[], cv: number): boolean {
  const main = metrics[0]?.name;
  if (main === undefined) return false;
  const samples = byFigure(metrics.filter((m) => m.name === main));
  return [...samples.values()].every((group) => group.length > 1 && summarize(group.map((m) => m.value)).cv <= cv);
}

/**
 * A run's figures as the records show them. A repeated run's are one per metric (name, tags and
 * machine): `value` is the mean, `stats` the summary with its 95% interval, `values` each
 * repetition's in order. A run that measured once is shown as it was measured.
 */
export function metricsView(stored: readonly StoredMetric[] | null | undefined): Metric[] {
  if (!stored?.length) return [];
  if (!stored.some((m) => m.repetition !== undefined)) return stored as Metric[];
  return [...byFigure(stored).values()].map((group) => {
    const { repetition: _repetition, ...first } = group[0];
    const values = group.map((m) => m.value);
    const stats = summarize(values);
    return { ...first, value: stats.mean, stats, values };
  });
}

/** Each repetition's figures of one metric (name and tags) on one machine and role, in order. */
function byFigure(metrics: readonly StoredMetric[]): Map<string, StoredMetric[]> {
  const groups = new Map<string, StoredMetric[]>();
  for (const m of metrics) {
    const key = `${metricKey(m)}@${m.vm ?? ""}@${m.role ?? ""}`;
    const group = groups.get(key);
    if (group) group.push(m);
    else groups.set(key, [m]);
  }
  return groups;
}
