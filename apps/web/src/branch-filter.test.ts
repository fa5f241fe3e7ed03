import type { SeriesPoint } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { branchesOf, pointsOnBranch } from "./branch-filter.js";

const point = (seq: number, branch: string | null): SeriesPoint => ({
  seq,
  at: "2026-11-28 10:00:00",
  execution_id: null,
  ingest_id: "0c8e6a4f-2b1d-4c3e-9f5a-7b6d8e0f1a2c",
  branch,
  commit: null,
  plan_run_id: null,
  n: 3,
  mean: 10 + seq,
  ci_low: null,
  ci_high: null,
  facts: {},
});

describe("a series' trend by branch", () => {
  const points = [point(1, "main"), point(2, "feature/a"), point(3, null), point(4, "main")];

  it("lists the branches its points name, once each, in order", () => {
    expect(branchesOf(points)).toEqual(["main", "feature/a"]);
  });

  it("keeps one branch's points, or all of them without a branch chosen", () => {
    expect(pointsOnBranch(points, "main").map((p) => p.seq)).toEqual([1, 4]);
    expect(pointsOnBranch(points, undefined).map((p) => p.seq)).toEqual([1, 2, 3, 4]);
  });
});
