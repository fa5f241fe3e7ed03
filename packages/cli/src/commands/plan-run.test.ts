import { describe, expect, it } from "vitest";
import { failuresText, rankingText } from "./plan-run.js";

const target = { rank: 1, cells: 1, geomean: 1, geomean_ci_low: null, geomean_ci_high: null };

describe("plan run's ranking and failures", () => {
  it("counts cancelled cells in their own column, not with the failed ones", () => {
    const text = rankingText({
      baseline: "here",
      confidence: 0.95,
      targets: [{ ...target, target: "here", failed: 0, cancelled: 2 }],
    });
    const [head, row] = text.split("\n");
    expect(head.split(/\s{2,}/)).toEqual(["RANK", "TARGET", "GEOMEAN vs BASELINE", "95% INTERVAL", "CELLS", "FAILED", "CANCELLED"]);
    expect(row.split(/\s{2,}/).slice(-2)).toEqual(["0", "2"]);
  });

  it("names each failed or cancelled cell by its params, not only its workload", () => {
    const cell = {
      target: "here",
      benchmark: 0,
      tool: "idle",
      workload: "idle",
      state: "cancelled" as const,
      execution_id: null,
      error: "the run was cancelled",
    };
    const text = failuresText({
      failures: [
        { ...cell, cell: 0, params: { seconds: 0 } },
        { ...cell, cell: 1, params: { seconds: 0.5 } },
      ],
    });
    expect(text.split("\n").slice(1)).toEqual([
      "cancelled  here    idle/idle seconds=0    the run was cancelled",
      "cancelled  here    idle/idle seconds=0.5  the run was cancelled",
    ]);
  });
});
