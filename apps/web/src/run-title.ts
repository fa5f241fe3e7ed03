import type { Execution, Workload } from "@benchwright/sdk";

/** What an execution ran, in words: title and description as the page shows them. */
export interface RunWords {
  title: string;
  description: string;
}

/**
 * A workload's name and description speak of its defaults ("Idle 5 s", "Sleeps 5 seconds."):
 * a run with other values is named by its workload's id and the values it used, and its
 * description says them before the declared one. Without the declarations (a tool no longer
 * in the catalogue), every value is named.
 */
export function runWords(e: Execution, workload?: Workload): RunWords {
  const declared = new Map((workload?.params ?? []).map((p) => [p.name, p]));
  const changed = Object.entries(e.params ?? {}).filter(([name, value]) => !workload || declared.get(name)?.default !== value);
  const value = (name: string, v: unknown) => {
    const unit = declared.get(name)?.unit;
    return `${String(v)}${unit ? ` ${unit}` : ""}`;
  };
  const used = changed.map(([name, v]) => `${name} = ${value(name, v)}`);
  const repeats = repetitionsText(e.repetitions);
  const title = [`${e.test.tool_name} / ${used.length ? e.test.workload_id : e.test.workload_name}`, ...used, ...(repeats ? [repeats] : [])].join(", ");
  if (!used.length) return { title, description: e.test.workload_description };
  const withDefaults = changed.map(([name, v]) => {
    const d = declared.get(name);
    return `${name} = ${value(name, v)}${d ? ` (default ${value(name, d.default)})` : ""}`;
  });
  return { title, description: `Ran with ${withDefaults.join(", ")}. The workload as declared: ${e.test.workload_description}` };
}

/** `×3`, or `until CV ≤ 0.02 (3 to 10 times)`; empty for a run that measures once. */
function repetitionsText(plan: Execution["repetitions"]): string {
  if (!plan) return "";
  if ("count" in plan) return `×${plan.count}`;
  return `until CV ≤ ${plan.until_cv} (${plan.min} to ${plan.max} times)`;
}
