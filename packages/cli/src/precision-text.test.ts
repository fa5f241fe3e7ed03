import type { PlanReport } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { precisionText } from "./precision-text.js";

const state = (target: string, precision?: PlanReport["cells"][number]["states"][number]["precision"]) => ({
  target,
  state: "completed" as const,
  execution_id: null,
  attempts: 2,
  error: null,
  ...(precision ? { precision } : {}),
});

describe("a precision plan's report as text", () => {
  it("says per target and cell the precision reached, what it took and cost, and why it stopped", () => {
    const cell = { benchmark: 0, cell: 1, tool: "spin", workload: "loop", params: {}, main_metric: "spin_seconds", metrics: [] };
    const precision = {
      asked: 0.02,
      reached: 0.0963,
      machines: 4,
      runs: 8,
      rounds: [
        { execution_id: "a", machines: 3, first_machine: 0, runs: 2, added: "pilot" as const },
        { execution_id: "b", machines: 1, first_machine: 3, runs: 2, added: "machines" as const },
      ],
      cost: 27.6,
      unit: "wall_seconds",
      stop: "machines_exhausted" as const,
      reason: "the target has 4 machines, and their spread alone leaves ±9.56%: more runs cannot reach ±2.00%",
    };
    const report = { cells: [{ ...cell, states: [state("even"), state("uneven", precision)] }] } as unknown as PlanReport;
    expect(precisionText(report)).toBe(
      "\nPrecision\n  uneven spin/loop #0.1: ±9.63% of ±2.00% asked, 4 machines, 8 values, 2 rounds, 27.6 wall seconds; machines_exhausted: the target has 4 machines, and their spread alone leaves ±9.56%: more runs cannot reach ±2.00%\n",
    );
    expect(precisionText({ cells: [{ ...cell, states: [state("even")] }] } as unknown as PlanReport)).toBe("");
  });
});
