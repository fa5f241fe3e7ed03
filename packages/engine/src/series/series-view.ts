import type { Series, SeriesComparison, SeriesPoint } from "@benchwright/contract";
import type { SeriesPointRow } from "../model/series.js";
import { direction } from "../results/change-points.js";
import { ratioEstimate } from "../results/claims.js";
import { claimsOf } from "../results/figure-claims.js";
import { meanEstimate } from "../results/nested-summary.js";
import { compareSamples, type Summary, summarize } from "../results/statistics.js";
import type { SeriesWithFigures } from "../store/series-repository.js";
import { formatTimestamp } from "../time.js";
import { seriesIdentity } from "./series-identity.js";

export function pointView(p: SeriesPointRow): SeriesPoint {
  return {
    seq: Number(p.seq),
    at: formatTimestamp(new Date(p.at)),
    execution_id: p.execution_id,
    plan_run_id: p.plan_run_id,
    ingest_id: p.ingest_id ?? null,
    branch: p.branch ?? null,
    commit: p.commit_id ?? null,
    n: Number(p.n),
    mean: p.mean,
    ci_low: p.ci_low,
    ci_high: p.ci_high,
    facts: p.facts ?? {},
  };
}

/**
 * A series' view. Its baseline is summarised over its points' means (an interval from two
 * points on), and its latest level (the points since the last change found, at most a window
 * of them) is compared with it (see latestVsBaseline).
 */
export function seriesView(row: SeriesWithFigures): Series {
  const identity = seriesIdentity(row);
  const baselineMeans = row.baseline_means?.map(Number) ?? [];
  const latestMeans = row.latest_means?.map(Number) ?? [];
  const base = row.baseline && baselineMeans.length > 0 ? summarize(baselineMeans) : null;
  const latest = base && latestMeans.length > 0 ? summarize(latestMeans) : null;
  return {
    id: row.id,
    ...identity,
    points: Number(row.points),
    first_at: row.first_at ? formatTimestamp(new Date(row.first_at)) : null,
    last_at: row.last_at ? formatTimestamp(new Date(row.last_at)) : null,
    latest: row.latest ? pointView(row.latest) : null,
    baseline:
      row.baseline && base
        ? {
            from: row.baseline.from,
            to: row.baseline.to,
            n: base.n,
            mean: base.mean,
            ci_low: base.n > 1 ? base.ci_low : null,
            ci_high: base.n > 1 ? base.ci_high : null,
            margin: row.baseline.margin ?? null,
          }
        : null,
    latest_vs_baseline:
      base && latest && row.baseline
        ? withClaim(latestVsBaseline(base, latest, identity.metric.better), row.baseline, baselineMeans, latestMeans, identity.metric)
        : null,
    open_changes: Number(row.open_changes),
  };
}

/**
 * The latest level against the baseline: latest mean / baseline mean − 1, with its 95% interval
 * by Welch's test; a baseline of one point is taken as exact (the interval is the latest
 * level's alone). The direction is told only when the interval is known and excludes 0.
 */
function latestVsBaseline(base: Summary, latest: Summary, better: "higher" | "lower"): SeriesComparison | null {
  if (base.mean === 0) return null;
  const size = latest.mean / base.mean - 1;
  let low: number | null;
  let high: number | null;
  if (base.n === 1) {
    const ends = latest.n > 1 ? [latest.ci_low / base.mean - 1, latest.ci_high / base.mean - 1] : null;
    [low, high] = ends ? [Math.min(...ends), Math.max(...ends)] : [null, null];
  } else {
    const test = compareSamples(base, latest);
    [low, high] = [test.ci_low === null ? null : test.ci_low - 1, test.ci_high === null ? null : test.ci_high - 1];
  }
  const told = low !== null && high !== null && (low > 0 || high < 0);
  return { size, size_ci_low: low, size_ci_high: high, direction: told ? direction(size, better) : null };
}

/**
 * With a margin, the comparison's claim: the one verdict function compare and reports use
 * (results/claims.ts), each point one unit, a family of one. Null when a side has fewer than two
 * points (no spread to tell an interval from).
 */
function withClaim(
  comparison: SeriesComparison | null,
  baseline: NonNullable<SeriesWithFigures["baseline"]>,
  baselineMeans: readonly number[],
  latestMeans: readonly number[],
  metric: { name: string; better: "higher" | "lower" },
): SeriesComparison | null {
  if (!comparison || baseline.margin === undefined) return comparison;
  const estimate = baselineMeans.length > 1 && latestMeans.length > 1 ? ratioEstimate(meanEstimate([baselineMeans]), meanEstimate([latestMeans])) : null;
  const range = baseline.from === baseline.to ? `point ${baseline.from}` : `points ${baseline.from} to ${baseline.to}`;
  const side = (label: string, points: number) => ({ label, machines: 1, runs: points, between_cv: null });
  const [claim] = claimsOf(
    [
      estimate
        ? {
            estimate,
            better: metric.better,
            metric: metric.name,
            subject: side(`the latest level (${latestMeans.length} points)`, latestMeans.length),
            baseline: side(`the baseline (${range})`, baselineMeans.length),
            design: `${latestMeans.length} points against ${baselineMeans.length}, each point one run's mean`,
          }
        : undefined,
    ],
    baseline.margin,
    0.95,
  );
  return { ...comparison, claim: claim ?? null };
}
