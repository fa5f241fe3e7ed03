import type { Plan, PlanCreate } from "@benchwright/sdk";
import { print, printJson, type Context } from "../context.js";
import { readYamlFile } from "../yaml-file.js";
import { table } from "../tables.js";

/**
 * `benchwright plan validate|create <plan.yaml>`: the server checks the plan (validate stores
 * nothing) and this prints its expansion; a plan it refuses exits with every problem listed.
 */
export async function planCommand(action: string, file: string, ctx: Context): Promise<number> {
  const plan = await ctx.bw.createPlan(await readPlan(file), { dryRun: action === "validate" });
  if (ctx.json) {
    printJson(plan);
    return 0;
  }
  print(expansionText(plan));
  print(action === "validate" ? "\nThe plan is valid (not stored)." : `\nStored as plan ${plan.id}.`);
  return 0;
}

export async function readPlan(file: string): Promise<PlanCreate> {
  return (await readYamlFile(file)) as PlanCreate;
}

/** The targets, the benchmarks with their cells, and the size: what a run of the plan would make. */
export function expansionText(plan: Plan): string {
  const targets = table(
    ["TARGET", "PROVIDER", "SERVICE", "CLASS"],
    plan.targets.map((t) => [t.label + (t.label === plan.baseline ? " (baseline)" : ""), t.provider, t.service, t.inline ? `${t.class} (inline)` : t.class]),
  );
  const benchmarks = table(
    ["BENCHMARK", "PARAMS", "CELLS"],
    plan.benchmarks.map((b) => [`${b.tool}/${b.workload}`, paramsText(b.params, b.zip), String(b.cells)]),
  );
  const size = `${count(plan.targets.length, "target")} × ${count(plan.cells, "cell")} = ${count(plan.executions, "execution")}`;
  return `${targets}\n\n${benchmarks}\n\n${size}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function paramsText(params: Plan["benchmarks"][number]["params"], zip: boolean): string {
  const text = Object.entries(params)
    .map(([name, v]) => `${name}=${Array.isArray(v) ? `[${v.join(", ")}]` : String(v)}`)
    .join(" ");
  return (text || "(defaults)") + (zip ? " (zip)" : "");
}
