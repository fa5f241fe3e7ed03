import { describe, expect, it } from "vitest";
import type { CellPrecision } from "../../model/plan-runs.js";
import { buildPlanReport } from "./plan-report.js";
import { mergeRounds, roundExecutionIds } from "./precision-merge.js";
import { reportHtml } from "./report-html.js";
import { reportRows } from "./report-rows.js";
import { RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

const run = syntheticRun(["here", "there"]);

describe("a precision plan's report", () => {
  it("puts a cell's rounds together under its execution, sums their cost, and shows the precision in the page and the CSV", () => {
    const cell = run.cells.find((c) => c.target === "there" && c.state === "completed")!;
    const pilot = run.executions.get(cell.execution_id!)!;
    // A second round on a machine of its own, one value.
    const round = { ...pilot, id: "00000000-0000-4000-8000-0000000000aa", metrics: pilot.metrics.map((m) => ({ ...m, vm: "second", value: m.value * 1.1 })) };
    const precision: CellPrecision = {
      asked: 0.02,
      reached: 0.015,
      machines: 2,
      runs: 6,
      rounds: [
        { execution_id: cell.execution_id!, machines: 1, first_machine: 0, runs: 3, added: "pilot" },
        { execution_id: round.id, machines: 1, first_machine: 1, runs: 3, added: "machines" },
      ],
      cost: 0.5,
      unit: "money",
      stop: "precision_reached",
      reason: "the mean's interval is ±1.50%, within the ±2.00% asked for",
    };
    const cells = run.cells.map((c) => (c === cell ? { ...c, precision } : c));
    expect(roundExecutionIds(cells)).toEqual([round.id]);
    const costs = new Map([
      [cell.execution_id!, { amount: 0.25, currency: "EUR", seconds: 1800 }],
      [round.id, { amount: 0.5, currency: "EUR", seconds: 3600 }],
    ]);
    const merged = mergeRounds(cells, new Map([...run.executions, [round.id, round]]), costs);
    expect(merged.rows.get(cell.execution_id!)!.metrics).toHaveLength(pilot.metrics.length * 2);
    expect(merged.costs!.get(cell.execution_id!)).toMatchObject({ amount: 0.75, currency: "EUR" });
    const mergedCell = merged.cells.find((c) => c.execution_id === cell.execution_id && c.target === "there")!;
    expect(mergedCell.precision).toMatchObject({ cost: 0.75, currency: "EUR" });

    const report = buildPlanReport(run.plan, merged.cells, merged.rows, { runId: RUN_ID, costs: merged.costs });
    const reportCell = report.cells.find((c) => c.states.some((s) => s.precision))!;
    const figure = reportCell.metrics[0].figures.find((f) => f.target === "there")!;
    // Both rounds' machines in the two-level summary.
    expect(figure.variability).toMatchObject({ machines: 2, interval_from: "machines" });
    const row = reportRows(report).find((r) => r.target === "there" && r.cell === reportCell.cell && r.benchmark === reportCell.benchmark)!;
    expect(row).toMatchObject({ precision_reached: 0.015, precision_cost: 0.75, precision_stop: "precision_reached" });
    const html = reportHtml(report);
    const section = html.slice(html.indexOf('<section id="precision">'));
    expect(section).toContain('<tr data-stop="precision_reached"><th scope="row">there</th>');
    expect(section).toContain("±1.50%");
    expect(section).toContain("0.750 EUR");
  });
});
