/**
 * Each mean's rank among the targets' in one metric: 1 for the best by the metric's `better`,
 * equal means sharing a rank and the next one skipped ("1, 1, 3"). A metric that does not say
 * which is better ranks nobody: ordering it would claim what its tool does not.
 */
export function ranksOf(means: readonly number[], better: "higher" | "lower" | undefined): Array<number | null> {
  if (!better) return means.map(() => null);
  const beats = (a: number, b: number) => (better === "higher" ? a > b : a < b);
  return means.map((mean) => 1 + means.filter((other) => beats(other, mean)).length);
}
