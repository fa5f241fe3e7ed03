import type { Plan, PlanReport } from "@benchwright/contract";
import type { PlanRunCell } from "../../model/plan-runs.js";
import type { ComparedRow } from "../../results/comparison.js";
import { buildPlanReport } from "./plan-report.js";
import { reportCsv, reportJsonLines } from "./report-text.js";
import type { ExecutionCost } from "./target-standings.js";

export type ReportFormat = "json" | "csv" | "jsonl" | "html";

/** What a report reads of a run: its plan and its cells. */
interface PlanRunData {
  plan: Plan;
  cells: PlanRunCell[];
}

export interface PlanReportsOptions {
  /** The run's plan and cells; throws `not_found` for an unknown plan or run. */
  loadRun(planId: string, runId: string): Promise<PlanRunData>;
  /** What `compareExecutions` reads of each execution, in the order of the ids. */
  comparedRows(ids: string[]): Promise<ComparedRow[]>;
  /** What each execution cost, when something computes it: fills the targets' cost fields. */
  costs?(executionIds: string[]): Promise<ReadonlyMap<string, ExecutionCost>>;
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

/** Reports of plans' runs: the run read through `loadRun`, its executions' figures through `comparedRows`, built and rendered. */
export class PlanReports {
  constructor(private readonly options: PlanReportsOptions) {}

  async report(planId: string, runId: string, format: ReportFormat = "json"): Promise<RenderedReport> {
    const { plan, cells } = await this.options.loadRun(planId, runId);
    const ids = [...new Set(cells.flatMap((c) => (c.execution_id ? [c.execution_id] : [])))];
    const rows = ids.length ? await this.options.comparedRows(ids) : [];
    const costs = this.options.costs ? await this.options.costs(ids) : undefined;
    const report = buildPlanReport(plan, cells, new Map(rows.map((r) => [r.id, r])), { runId, costs });
    const mediaType = REPORT_MEDIA_TYPES[format];
    if (format === "json") return { format, mediaType, body: report };
    return { format, mediaType, body: await renderReport(report, format) };
  }
}

/** A report as text: CSV, JSON Lines or the HTML page. */
export async function renderReport(report: PlanReport, format: "csv" | "jsonl" | "html"): Promise<string> {
  if (format !== "html") return (format === "csv" ? reportCsv : reportJsonLines)(report);
  // ECharts loads with the first page asked for, not with every engine: it takes a second at start-up on a busy machine.
  const { reportHtml } = await import("./report-html.js");
  return reportHtml(report);
}
