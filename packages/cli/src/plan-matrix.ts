import { paramsText } from "./params-text.js";

/** What the matrix needs of a plan run (the SDK's `PlanRun` has it). */
export interface MatrixRun {
  state: string;
  progress: { total: number; completed: number; failed: number; running: number; cancelled?: number; eta_seconds?: number | null };
  cells: Array<{ target: string; benchmark: number; cell: number; state: string; tool: string; workload: string; params: Record<string, unknown> }>;
}

/** A cell's state as one character: a row of them reads at a glance, and a 40-cell plan fits a line. */
const MARKS: Record<string, string> = {
  pending: "·",
  preparing: "◐",
  running: "▶",
  completed: "✔",
  failed: "✖",
  cancelled: "⊘",
};

export const MATRIX_LEGEND = "· pending  ◐ preparing  ▶ running  ✔ completed  ✖ failed  ⊘ cancelled";

/**
 * The run as a grid, a row per target and a mark per cell, in the plan's order (benchmark,
 * then its cells), the columns numbered below with what each benchmark's cells are; then the
 * counts and the time left. Rows longer than `width` wrap under their label.
 */
export function matrixText(run: MatrixRun, width = 100): string {
  const targets = [...new Set(run.cells.map((c) => c.target))];
  const order = (a: MatrixRun["cells"][number], b: MatrixRun["cells"][number]) => a.benchmark - b.benchmark || a.cell - b.cell;
  const labelWidth = Math.min(32, Math.max(...targets.map((t) => t.length), 6));
  const perLine = Math.max(10, width - labelWidth - 2);
  const lines: string[] = [];
  for (const target of targets) {
    const marks = run.cells
      .filter((c) => c.target === target)
      .sort(order)
      .map((c) => MARKS[c.state] ?? "?")
      .join("");
    for (let at = 0; at < Math.max(marks.length, 1); at += perLine) {
      const label = at === 0 ? target.slice(0, labelWidth).padEnd(labelWidth) : " ".repeat(labelWidth);
      lines.push(`${label}  ${marks.slice(at, at + perLine)}`);
    }
  }
  lines.push(...columnsText(run.cells.filter((c) => c.target === targets[0]).sort(order)));
  lines.push(progressText(run));
  return lines.join("\n");
}

/** Which columns are which benchmark, and the params of each of its cells when it has several. */
function columnsText(cells: MatrixRun["cells"]): string[] {
  const lines: string[] = [];
  let column = 1;
  for (const benchmark of [...new Set(cells.map((c) => c.benchmark))]) {
    const own = cells.filter((c) => c.benchmark === benchmark);
    const first = own[0]!;
    const span = own.length === 1 ? `${column}` : `${column}-${column + own.length - 1}`;
    const varying = own.length > 1 ? ` (${own.map((c) => paramsText(c.params) || "defaults").join(" | ")})` : "";
    lines.push(`  ${span}: ${first.tool}/${first.workload}${varying}`);
    column += own.length;
  }
  return lines;
}

/** `12/40 done (1 failed), 2 running, about 3 min left`. */
export function progressText(run: MatrixRun): string {
  const { total, completed, failed, running, cancelled = 0, eta_seconds } = run.progress;
  const done = completed + failed + cancelled;
  const parts = [`${done}/${total} done${failed ? ` (${failed} failed)` : ""}${cancelled ? ` (${cancelled} cancelled)` : ""}`];
  if (running) parts.push(`${running} running`);
  if (eta_seconds !== undefined && eta_seconds !== null && done < total) parts.push(`about ${durationText(eta_seconds)} left`);
  return `${run.state}: ${parts.join(", ")}`;
}

function durationText(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
