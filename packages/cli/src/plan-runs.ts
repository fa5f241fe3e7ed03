import type { BenchwrightClient } from "@benchwright/sdk";
import { matchPrefix } from "./ids.js";

/**
 * The plan of a run named by its id (whole, or its first 8 characters or more), or by
 * `<plan>/<run>`: a run's address on the API holds its plan, which a person rarely has at
 * hand. Without the plan, every plan's runs are read to find it.
 */
export async function resolveRun(bw: BenchwrightClient, typed: string, planId?: string): Promise<{ planId: string; runId: string }> {
  const [first, second] = typed.split("/", 2);
  if (second !== undefined) return { planId: first!, runId: second };
  const plans = planId ? [planId] : (await bw.listPlans()).map((p) => p.id);
  const runs: Array<{ planId: string; runId: string }> = [];
  for (const plan of plans) for (const run of await bw.listPlanRuns(plan)) runs.push({ planId: plan, runId: run.id });
  const runId = matchPrefix(
    typed,
    runs.map((r) => r.runId),
    "plan run",
  );
  return runs.find((r) => r.runId === runId)!;
}
