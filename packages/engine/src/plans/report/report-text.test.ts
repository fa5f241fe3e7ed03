import { loadSpec } from "@benchwright/contract";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { buildPlanReport } from "./plan-report.js";
import { REPORT_COLUMNS, reportRows } from "./report-rows.js";
import { reportCsv, reportJsonLines } from "./report-text.js";
import { RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

// Labels a spreadsheet or a naive splitter would trip on: a comma, a quote, a line end, a formula.
const run = syntheticRun(['here, "the" baseline', "=cmd|'/c calc'!A1\nfast"]);
const report = buildPlanReport(run.plan, run.cells, run.executions, { runId: RUN_ID });
const rows = reportRows(report);

describe("the report's lines", () => {
  it("have the contract's PlanReportRow columns, in its order", () => {
    const spec = loadSpec() as { components: { schemas: Record<string, { properties: object; required: string[] }> } };
    expect(REPORT_COLUMNS).toEqual(Object.keys(spec.components.schemas.PlanReportRow.properties));
    expect([...REPORT_COLUMNS].sort()).toEqual([...spec.components.schemas.PlanReportRow.required].sort());
    expect(Object.keys(rows[0])).toEqual([...REPORT_COLUMNS]);
  });

  it("are one per target, cell and metric, and one without a metric for a failed cell", () => {
    // 2 metrics × 2 targets, 1 × 2, the idle cell's baseline and its failure, 1 × 2.
    expect(rows).toHaveLength(4 + 2 + 2 + 2);
    const failed = rows.find((r) => r.state === "failed")!;
    expect(failed).toMatchObject({ benchmark: 1, metric: null, n: null, verdict: null, error: "machine fast-1 did not answer on port 22" });
    expect(rows.find((r) => r.metric === "events_per_second" && r.benchmark === 0 && r.cell === 0 && r.rank === 1)!.verdict).toBe("better");
  });

  it("read back from JSON Lines as they were", () => {
    const text = reportJsonLines(report);
    expect(text.endsWith("\n")).toBe(true);
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(rows);
  });

  it("read back from CSV by an RFC 4180 parser, the contract's columns in order, a formula defused", () => {
    const text = reportCsv(report);
    expect(text.split("\r\n")[0]).toBe(REPORT_COLUMNS.join(","));
    const parsed = parse(text, { columns: true, record_delimiter: "\r\n" }) as Array<Record<string, string>>;
    expect(parsed).toHaveLength(rows.length);
    parsed.forEach((p, i) => {
      const r = rows[i];
      expect(p.target).toBe(r.target.startsWith("=") ? `'${r.target}` : r.target);
      expect(JSON.parse(p.parameters)).toEqual(r.parameters);
      expect(JSON.parse(p.tags)).toEqual(r.tags);
      expect(p.metric).toBe(r.metric ?? "");
      expect(p.mean === "" ? null : Number(p.mean)).toBe(r.mean);
      expect(p.ratio_ci_low === "" ? null : Number(p.ratio_ci_low)).toBe(r.ratio_ci_low);
      expect(p.verdict).toBe(r.verdict ?? "");
      expect(p.rank === "" ? null : Number(p.rank)).toBe(r.rank);
      expect(p.error).toBe(r.error ?? "");
    });
    expect(parsed.some((p) => p.target === 'here, "the" baseline')).toBe(true);
  });
});
