import type { SeriesPoint } from "@benchwright/sdk";

/** The branches a series' points name (ingested points carry one; a run's may not), in order of first appearance. */
export function branchesOf(points: readonly SeriesPoint[]): string[] {
  return [...new Set(points.flatMap((p) => (p.branch ? [p.branch] : [])))];
}

/** The points of one branch; every point without a branch chosen. */
export function pointsOnBranch(points: readonly SeriesPoint[], branch: string | undefined): SeriesPoint[] {
  return branch ? points.filter((p) => p.branch === branch) : [...points];
}
