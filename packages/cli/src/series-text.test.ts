import type { Series } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { pointsTable, seriesRecord } from "./series-text.js";

const point = { seq: 1, at: "2026-11-16 03:00:05", n: 5, mean: 5.003333333333333, ci_low: 5.000849123, ci_high: 5.005817543 };

describe("series' words and figures", () => {
  it("writes a mean's interval as its half-width to three digits, as the docs say and compare does", () => {
    const [head, row] = pointsTable([point] as never, []).split("\n");
    expect(head).toMatch(/MEAN ± 95%/);
    expect(row).toMatch(/5\.00333 ± 0\.00248\s+5/);
  });

  it("says 'no clear difference' when the latest level's interval holds the baseline's", () => {
    const series = {
      id: "s",
      benchmark: { tool: "idle", workload: "idle", params: {} },
      metric: { name: "idle_seconds", tags: {}, unit: "s", better: "lower" },
      target: { provider: "local", service_type: "default" },
      points: 1,
      first_at: point.at,
      last_at: point.at,
      latest: point,
      baseline: { from: 1, to: 1, n: 1, mean: 5, ci_low: null, ci_high: null },
      latest_vs_baseline: { size: 0.001, size_ci_low: -0.01, size_ci_high: 0.012, direction: null },
      open_changes: 0,
    } as unknown as Series;
    expect(seriesRecord(series)).toMatch(/vs baseline\s+\+0\.1% \[-1\.0%, \+1\.2%\] no clear difference/);
    expect(seriesRecord(series)).not.toMatch(/verdict/);
  });

  it("shows the verdict and its sentence when the baseline has a margin", () => {
    const sentence = "the latest level (4 points) is equivalent to the baseline (points 1 to 8) on idle_seconds, within ±2.0% (…).";
    const claim = { verdict: "equivalent", margin: 0.02, p_value: 0.001, p_adjusted: 0.001, settle_n: null, sentence };
    const series = {
      id: "s",
      benchmark: { tool: "idle", workload: "idle", params: {} },
      metric: { name: "idle_seconds", tags: {}, unit: "s", better: "lower" },
      target: { provider: "local", service_type: "default" },
      points: 12,
      latest: point,
      baseline: { from: 1, to: 8, n: 8, mean: 5, ci_low: 4.9, ci_high: 5.1, margin: 0.02 },
      latest_vs_baseline: { size: 0.001, size_ci_low: -0.01, size_ci_high: 0.012, direction: null, claim },
      open_changes: 0,
    } as unknown as Series;
    expect(seriesRecord(series)).toMatch(/verdict\s+equivalent: the latest level \(4 points\) is equivalent/);
    expect(seriesRecord(series)).toContain(sentence);
  });
});
