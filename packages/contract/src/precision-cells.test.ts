import { describe, expect, it } from "vitest";
import { plusMinusPercent, precisionCells } from "./precision-cells.js";
import type { PlanCellPrecision, PlanReport } from "./schema-types.js";

const precision = (over: Partial<PlanCellPrecision>): PlanCellPrecision => ({
  asked: 0.02,
  reached: 0.015,
  machines: 3,
  runs: 6,
  rounds: [],
  cost: 27.6,
  unit: "wall_seconds",
  stop: "precision_reached",
  reason: "reached",
  ...over,
});

const state = (target: string, p?: PlanCellPrecision) => ({
  target,
  state: "completed" as const,
  execution_id: null,
  attempts: 1,
  error: null,
  ...(p ? { precision: p } : {}),
});

const cell = (n: number, states: ReturnType<typeof state>[]) => ({
  benchmark: 0,
  cell: n,
  tool: "spin",
  workload: "loop",
  params: {},
  main_metric: null,
  metrics: [],
  states,
});

describe("a precision plan's cells", () => {
  it("yields each cell and target with a precision, in order, with its cost in its unit", () => {
    const money = precision({ cost: 0.123456, unit: "money", currency: "EUR" });
    const hours = precision({ cost: 2, unit: "machine_hours" });
    const report = { cells: [cell(0, [state("a"), state("b", money)]), cell(1, [state("a", hours)])] } as unknown as PlanReport;
    const cells = precisionCells(report);
    expect(cells.map((c) => [c.cell.cell, c.state.target, c.cost])).toEqual([
      [0, "b", "0.123 EUR"],
      [1, "a", "2.00 machine hours"],
    ]);
    expect(cells[0]?.precision).toBe(money);
  });

  it("gives no cost text when the cost is unknown, and an empty unit for money without a currency", () => {
    const report = {
      cells: [cell(0, [state("a", precision({ cost: null })), state("b", precision({ cost: 5, unit: "money" }))])],
    } as unknown as PlanReport;
    expect(precisionCells(report).map((c) => c.cost)).toEqual([null, "5.00 "]);
  });

  it("yields nothing for a plan without precision", () => {
    expect(precisionCells({ cells: [cell(0, [state("a")])] } as unknown as PlanReport)).toEqual([]);
  });
});

describe("a relative half-width as text", () => {
  it("is a percentage to two decimals, a dash before there is one", () => {
    expect(plusMinusPercent(0.0963)).toBe("±9.63%");
    expect(plusMinusPercent(0)).toBe("±0.00%");
    expect(plusMinusPercent(null)).toBe("–");
  });
});
