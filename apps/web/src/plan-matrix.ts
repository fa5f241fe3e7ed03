import type { PlanReport, PlanRun } from "@benchwright/sdk";
import { figure } from "./format.js";

type ReportCell = PlanReport["cells"][number];
type CellState = PlanRun["cells"][number]["state"];

/**
 * How a square of the matrix looks: the cell's state while it has no figure (`pending`,
 * `preparing`, `running`, `failed`, `cancelled`, or `completed` until the report reads it), then
 * its main metric's verdict against the baseline: `better`, `worse`, `baseline`, or `plain` where
 * the difference is not significant (or the metric does not say which way is better).
 */
type MatrixTone = CellState | "better" | "worse" | "baseline" | "plain";

/** A benchmark cell: a benchmark with one combination of its params, a column of the matrix. */
interface MatrixColumn {
  benchmark: number;
  cell: number;
  /** `idle/idle5 seconds=1` */
  title: string;
  /** The metric the colours read, once the report names it. */
  mainMetric: string | null;
}

interface MatrixSquare {
  target: string;
  state: CellState;
  executionId: string | null;
  error: string | null;
  tone: MatrixTone;
  /** The target's ratio to the baseline on the main metric, turned so that above 1 is better; null without one. */
  ratio: number | null;
  /** What the square says: its state, or its ratio and verdict. */
  text: string;
  /** What it says on hover: the error of a failed cell, the figures of a measured one. */
  hint: string;
  /** The background of a significant difference, deeper the farther the ratio is from 1; none otherwise. */
  shade: string | null;
}

interface MatrixRow {
  target: string;
  baseline: boolean;
  squares: MatrixSquare[];
}

export interface PlanMatrix {
  columns: MatrixColumn[];
  rows: MatrixRow[];
}

/** A cell as a reader names it, as the HTML report does: `sysbench/threads threads=4 duration=10`. */
export function cellTitle(cell: { tool: string; workload: string; params: Record<string, unknown> }): string {
  const params = Object.entries(cell.params).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [`${cell.tool}/${cell.workload}`, ...params].join(" ");
}

/**
 * The run's matrix: its targets as rows (in the run's order, the plan's), its benchmark cells as
 * columns (in the plan's order), each square from the run's cell (its state) and, once the report
 * has a figure for it, from the report (its ratio and verdict). Pure: the page redraws it from
 * each poll of the run, and the tests read it without a DOM.
 */
export function planMatrix(run: PlanRun, report: PlanReport | undefined, baseline: string | undefined): PlanMatrix {
  const key = (benchmark: number, cell: number) => `${benchmark}/${cell}`;
  const reportCells = new Map((report?.cells ?? []).map((c) => [key(c.benchmark, c.cell), c]));
  const columns: MatrixColumn[] = [];
  const seen = new Set<string>();
  for (const c of [...run.cells].sort((a, b) => a.benchmark - b.benchmark || a.cell - b.cell)) {
    const k = key(c.benchmark, c.cell);
    if (seen.has(k)) continue;
    seen.add(k);
    columns.push({ benchmark: c.benchmark, cell: c.cell, title: cellTitle(c), mainMetric: reportCells.get(k)?.main_metric ?? null });
  }
  const targets = [...new Set(run.cells.map((c) => c.target))];
  const base = report?.baseline ?? baseline;
  return {
    columns,
    rows: targets.map((target) => ({
      target,
      baseline: target === base,
      squares: columns.map((column) => {
        const runCell = run.cells.find((c) => c.target === target && c.benchmark === column.benchmark && c.cell === column.cell);
        return square(target, runCell, reportCells.get(key(column.benchmark, column.cell)));
      }),
    })),
  };
}

function square(target: string, runCell: PlanRun["cells"][number] | undefined, reportCell: ReportCell | undefined): MatrixSquare {
  const state: CellState = runCell?.state ?? "pending";
  const base = { target, state, executionId: runCell?.execution_id ?? null, error: runCell?.error ?? null, ratio: null, shade: null };
  if (state !== "completed") {
    const hint = runCell?.error ? `${state}: ${runCell.error}` : runCell?.attempts ? `${state}, ${runCell.attempts} step(s) begun` : state;
    return { ...base, tone: state, text: state.replace("_", " "), hint };
  }
  const main = reportCell?.metrics.find((m) => m.name === reportCell.main_metric);
  const f = main?.figures.find((x) => x.target === target);
  if (!main || !f)
    return { ...base, tone: "completed", text: "completed", hint: reportCell ? "completed, with no figure of the cell's main metric" : "completed" };
  const ratio = f.ratio === null || !main.better ? null : main.better === "lower" ? 1 / f.ratio : f.ratio;
  const tone: MatrixTone = f.verdict === "better" || f.verdict === "worse" || f.verdict === "baseline" ? f.verdict : "plain";
  const interval = `[${figure(f.ci_low)}, ${figure(f.ci_high)}]`;
  const hint = [
    `${main.name}: ${figure(f.mean)} ${main.unit} ${interval}, n=${f.n}`,
    f.ratio !== null && f.verdict !== "baseline" ? `ratio to the baseline ${figure(f.ratio)}${f.p_value !== null ? `, p=${figure(f.p_value)}` : ""}` : "",
    main.better ? `${main.better} is better` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return {
    ...base,
    tone,
    ratio,
    text: `${ratio === null ? "–" : `×${figure(ratio)}`} ${f.verdict.replace("_", " ")}`,
    hint,
    shade: tone === "better" || tone === "worse" ? shadeOf(tone, ratio) : null,
  };
}

/** The HTML report's colours: green or red, deeper as the ratio leaves 1 (a doubling or halving is the deepest). */
export function shadeOf(tone: "better" | "worse", ratio: number | null): string {
  const strength = ratio === null || ratio <= 0 ? 0 : Math.min(1, Math.abs(Math.log2(ratio)));
  // As the HTML report's: never darker than 76%, where dark text still reads at 7:1 on red.
  const lightness = Math.round(92 - 16 * strength);
  return tone === "better" ? `hsl(130 55% ${lightness}%)` : `hsl(0 70% ${lightness}%)`;
}

/** How many of the run's cells have ended (completed, failed or cancelled): the report changes when it does. */
export function cellsEnded(run: PlanRun): number {
  const p = run.progress;
  return p.completed + p.failed + p.cancelled;
}
