import type { PlanReport } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { geomeanBars, geomeanText } from "./geomean-bars.js";

type Target = PlanReport["targets"][number];
const target = (name: string, rank: number | null, geomean: number | null, low: number | null, high: number | null, cells = 3): Target => ({
  target: name,
  rank,
  cells,
  failed: 0,
  cancelled: 0,
  geomean,
  geomean_ci_low: low,
  geomean_ci_high: high,
});
const report = (targets: Target[]): PlanReport => ({ plan_id: "p", run_id: "r", baseline: "base", confidence: 0.95, targets, cells: [], failures: [] });

describe("geomeanBars", () => {
  it("gives a bar per target with a geometric mean, best first, its interval as the error bar, coloured as a verdict", () => {
    const bars = geomeanBars(
      report([
        target("fast", 1, 1.8, 1.4, 2.3),
        target("same", 2, 1.05, 0.9, 1.2),
        target("base", 3, 1, 1, 1),
        target("slow", 4, 0.5, 0.4, 0.62, 1),
        target("none", null, null, null, null, 0),
      ]),
    );
    expect(bars).toEqual([
      { label: "fast", value: 1.8, low: 1.4, high: 2.3, note: "rank 1, 3 cells", tone: "verdict-better" },
      // Its interval holds 1: no colour of a verdict.
      { label: "same", value: 1.05, low: 0.9, high: 1.2, note: "rank 2, 3 cells" },
      { label: "base", value: 1, low: 1, high: 1, note: "rank 3, baseline, 3 cells", tone: "verdict-baseline" },
      { label: "slow", value: 0.5, low: 0.4, high: 0.62, note: "rank 4, 1 cell", tone: "verdict-worse" },
    ]);
  });

  it("draws no error bar, and no verdict's colour, for a mean of one cell (no interval)", () => {
    expect(geomeanBars(report([target("one", 1, 2, null, null, 1)]))).toEqual([{ label: "one", value: 2, note: "rank 1, 1 cell" }]);
  });
});

describe("geomeanText", () => {
  it("says the mean as a factor with its interval, or a dash without one", () => {
    expect(geomeanText(target("a", 1, 1.23456, 1.1, 1.4))).toBe("×1.235 [1.1, 1.4]");
    expect(geomeanText(target("a", 1, 2, null, null))).toBe("×2");
    expect(geomeanText(target("a", null, null, null, null))).toBe("–");
  });
});
