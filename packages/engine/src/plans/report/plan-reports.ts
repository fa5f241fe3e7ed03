import type { Plan, PlanReport } from "@benchwright/contract";
import type { PlanRunCell } from "../../model/plan-runs.js";
import type { ComparedRow } from "../../results/comparison.js";
import { buildPlanReport } from "./plan-report.js";
import { mergeRounds, roundExecutionIds } from "./precision-merge.js";
import { reportCsv, reportJsonLines } from "./report-text.js";
import type { ExecutionCost } from "./target-standings.js";

export type ReportFormat = "json" | "csv" | "jsonl" | "html";

/** What a report reads of a run: its plan and its cells, and whether its figures and costs can still change. */
interface PlanRunData {
  plan: Plan;
  cells: PlanRunCell[];
  /** Ended, and its sessions gone with their machines: its report is the same from now on. */
  final?: boolean;
}

export interface PlanReportsOptions<R extends ComparedRow = ComparedRow> {
  /** The run's plan and cells; throws `not_found` for an unknown plan or run. */
  loadRun(planId: string, runId: string): Promise<PlanRunData>;
  /** What `compareExecutions` reads of each execution, in the order of the ids. */
  comparedRows(ids: string[]): Promise<R[]>;
  /** What each of these executions cost, when something computes it: fills the targets' cost fields. */
  costs?(rows: readonly R[]): Promise<ReadonlyMap<string, ExecutionCost>>;
  /** Whether the plan still exists: a final report kept here is answered only while it does. */
  planExists?(planId: string): Promise<boolean>;
}

/** A report as the HTTP answer carries it. */
export type RenderedReport = { format: "json"; mediaType: string; body: PlanReport } | { format: "csv" | "jsonl" | "html"; mediaType: string; body: string };

/** The media type of each format. JSON Lines answers as the metrics export does (`application/x-ndjson`). */
const REPORT_MEDIA_TYPES: Record<ReportFormat, string> = {
  json: "application/json",
  csv: "text/csv; charset=utf-8; header=present",
  jsonl: "application/x-ndjson",
  html: "text/html; charset=utf-8",
};

/** How many final reports a process keeps: each is a few hundred kilobytes for a run of a thousand cells. */
const KEPT_REPORTS = 32;

/**
 * Reports of plans' runs: the run read through `loadRun`, its executions' figures through
 * `comparedRows` (and their costs from the same rows), built and rendered. A final run's report
 * cannot change, so the last few are kept: building one reads every execution of the run.
 */
export class PlanReports<R extends ComparedRow = ComparedRow> {
  readonly #kept = new Map<string, { planId: string; report: PlanReport }>();

  constructor(private readonly options: PlanReportsOptions<R>) {}

  async report(planId: string, runId: string, format: ReportFormat = "json"): Promise<RenderedReport> {
    const report = (await this.#keptReport(planId, runId)) ?? (await this.#build(planId, runId));
    const mediaType = REPORT_MEDIA_TYPES[format];
    if (format === "json") return { format, mediaType, body: report };
    return { format, mediaType, body: await renderReport(report, format) };
  }

  async #keptReport(planId: string, runId: string): Promise<PlanReport | undefined> {
    const kept = this.#kept.get(runId);
    if (!kept || kept.planId !== planId || !this.options.planExists || !(await this.options.planExists(planId))) return undefined;
    return kept.report;
  }

  async #build(planId: string, runId: string): Promise<PlanReport> {
    const { plan, cells: runCells, final } = await this.options.loadRun(planId, runId);
    const ids = [...new Set([...runCells.flatMap((c) => (c.execution_id ? [c.execution_id] : [])), ...roundExecutionIds(runCells)])];
    const rows = ids.length ? await this.options.comparedRows(ids) : [];
    const read = this.options.costs ? await this.options.costs(rows) : undefined;
    // A precision cell's rounds count as its one execution.
    const { cells, rows: byId, costs } = mergeRounds(runCells, new Map(rows.map((r) => [r.id, r])), read);
    const report = buildPlanReport(plan, cells, byId, { runId, costs });
    if (final) {
      if (this.#kept.size >= KEPT_REPORTS) this.#kept.delete(this.#kept.keys().next().value!);
      this.#kept.set(runId, { planId, report });
    }
    return report;
  }
}

/** A report as text: CSV, JSON Lines or the HTML page. */
export async function renderReport(report: PlanReport, format: "csv" | "jsonl" | "html"): Promise<string> {
  if (format !== "html") return (format === "csv" ? reportCsv : reportJsonLines)(report);
  // ECharts loads with the first page asked for, not with every engine: it takes a second at start-up on a busy machine.
  const { reportHtml } = await import("./report-html.js");
  return reportHtml(report);
}
