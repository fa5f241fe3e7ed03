import type { PlanReport } from "@benchwright/contract";

type ReportCell = PlanReport["cells"][number];

/** A cell as a reader names it: `sysbench/threads threads=4 duration=10`. */
export function cellTitle(cell: Pick<ReportCell, "tool" | "workload" | "params">): string {
  const params = Object.entries(cell.params).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [`${cell.tool}/${cell.workload}`, ...params].join(" ");
}

/** A number for a table: four significant digits, or a dash for none. */
export function figure(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return Number(value.toPrecision(4)).toString();
}
