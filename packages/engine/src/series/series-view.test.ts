import { describe, expect, it } from "vitest";
import type { SeriesWithFigures } from "../store/series-repository.js";
import { seriesView } from "./series-view.js";

// A series' latest level against its baseline with a margin: the five verdicts of compare's
// claims (results/claims.ts), each point one unit, on constructed means.

const BASELINE = [100, 101, 99, 100, 100, 101, 99, 100];

function row(latest: number[], margin: number | undefined, better: "higher" | "lower" = "higher"): SeriesWithFigures {
  return {
    id: "7d0c2b1e-3f4a-4b5c-8d6e-9f0a1b2c3d4e",
    seq: "1",
    tool: "sysbench",
    workload: "cpu",
    params: {},
    metric: "events_per_second",
    tags: {},
    provider: "local",
    service_type: "default",
    unit: "events/s",
    better,
    points: BASELINE.length + latest.length,
    first_at: null,
    last_at: null,
    baseline: { from: 1, to: BASELINE.length, ...(margin === undefined ? {} : { margin }) },
    created: new Date(0),
    latest: null,
    open_changes: 0,
    baseline_means: BASELINE,
    latest_means: latest,
  };
}

describe("a series' latest level against its baseline with a margin", () => {
  const cases = [
    ["better", [110, 111, 109, 110]],
    ["worse", [90, 91, 89, 90]],
    ["equivalent", [100, 101, 99, 100]],
    ["not_worse", [100, 110, 100, 110, 100, 110, 100, 110]],
    ["not_better", [90, 100, 90, 100, 90, 100, 90, 100]],
    ["inconclusive", [80, 120, 90, 110]],
  ] as const;

  for (const [verdict, latest] of cases) {
    it(`is ${verdict} on latest means ${latest.join(", ")} (margin 5%)`, () => {
      const view = seriesView(row([...latest], 0.05));
      expect(view.baseline?.margin).toBe(0.05);
      const claim = view.latest_vs_baseline?.claim;
      expect(claim?.verdict, claim?.sentence).toBe(verdict);
      expect(claim?.margin).toBe(0.05);
      expect(claim?.sentence).toMatch(/the baseline \(points 1 to 8\)/);
      expect(claim?.sentence).toMatch(/\d+ points against 8, each point one run's mean/);
    });
  }

  it("reads a lower-is-better metric's fall as better", () => {
    expect(seriesView(row([90, 91, 89, 90], 0.05, "lower")).latest_vs_baseline?.claim?.verdict).toBe("better");
  });

  it("tells no claim without a margin, and a null one when a side has a single point", () => {
    expect(seriesView(row([110, 111], undefined)).latest_vs_baseline).not.toHaveProperty("claim");
    expect(seriesView(row([110, 111], undefined)).baseline?.margin).toBeNull();
    expect(seriesView(row([110], 0.05)).latest_vs_baseline?.claim).toBeNull();
  });
});
