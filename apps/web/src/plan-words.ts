import type { Plan, PlanRun } from "@benchwright/sdk";

/** `threads = 1, 4, 16; duration = 10`: a benchmark's params, each list as its values. */
export function paramsText(params: Plan["benchmarks"][number]["params"]): string {
  const entries = Object.entries(params);
  if (!entries.length) return "none";
  return entries.map(([k, v]) => `${k} = ${Array.isArray(v) ? v.map(String).join(", ") : String(v)}`).join("; ");
}

/** `2 targets × 3 cells = 6 executions` */
export function planSize(plan: Pick<Plan, "targets" | "cells" | "executions">): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  return `${n(plan.targets.length, "target")} × ${n(plan.cells, "cell")} = ${n(plan.executions, "execution")}`;
}

/** `3 of 4 cells ended (1 failed), 1 running, about 12 s left` */
export function progressText(run: Pick<PlanRun, "progress" | "ended">): string {
  const p = run.progress;
  const ended = p.completed + p.failed + p.cancelled;
  const bad = [p.failed ? `${p.failed} failed` : "", p.cancelled ? `${p.cancelled} cancelled` : ""].filter(Boolean).join(", ");
  return [
    `${ended} of ${p.total} cell${p.total === 1 ? "" : "s"} ended${bad ? ` (${bad})` : ""}`,
    p.running ? `${p.running} running` : "",
    run.ended === null && p.eta_seconds !== null ? `about ${p.eta_seconds} s left` : "",
  ]
    .filter(Boolean)
    .join(", ");
}
