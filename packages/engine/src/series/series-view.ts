import type { SeriesPointRow } from "../model/series.js";
import { direction } from "../results/change-points.js";
import { compareSamples, summarize } from "../results/statistics.js";
import type { SeriesWithFigures } from "../store/series-repository.js";
import { formatTimestamp } from "../time.js";

export interface SeriesPointView {
  seq: number;
  at: string;
  execution_id: string;
  plan_run_id: string | null;
  n: number;
  mean: number;
  ci_low: number | null;
  ci_high: number | null;
  facts: SeriesPointRow["facts"];
}

/** A series as the contract's Series shows it. */
export interface SeriesView {
  id: string;
  tool: string;
  workload: string;
  params: Record<string, unknown>;
  metric: string;
  tags: Record<string, string>;
  provider: string;
  service_type: string;
  unit: string;
  better: "higher" | "lower" | null;
  points: number;
  first_at: string | null;
  last_at: string | null;
  latest: SeriesPointView | null;
  baseline: { from: number; to: number; n: number; mean: number; ci_low: number | null; ci_high: number | null } | null;
  latest_vs_baseline: { size: number; size_ci_low: number | null; size_ci_high: number | null; direction: "regression" | "improvement" } | null;
  open_changes: number;
}

export function pointView(p: SeriesPointRow): SeriesPointView {
  return {
    seq: Number(p.seq),
    at: formatTimestamp(new Date(p.at)),
    execution_id: p.execution_id,
    plan_run_id: p.plan_run_id,
    n: Number(p.n),
    mean: p.mean,
    ci_low: p.ci_low,
    ci_high: p.ci_high,
    facts: p.facts ?? {},
  };
}

/**
 * A series' view. Its baseline is summarised over its points' means (an interval from two
 * points on), and the latest level (the points since the last change found, at most a window of
 * them) is compared with it by Welch's test: `size` is latest mean / baseline mean − 1.
 */
export function seriesView(row: SeriesWithFigures): SeriesView {
  const baselineMeans = row.baseline_means?.map(Number) ?? [];
  const latestMeans = row.latest_means?.map(Number) ?? [];
  const base = row.baseline && baselineMeans.length > 0 ? summarize(baselineMeans) : null;
  const latest = base && latestMeans.length > 0 ? summarize(latestMeans) : null;
  const test = base && latest ? compareSamples(base, latest) : null;
  const size = test && Number.isFinite(test.ratio) ? test.ratio - 1 : null;
  return {
    id: row.id,
    tool: row.tool,
    workload: row.workload,
    params: row.params,
    metric: row.metric,
    tags: row.tags,
    provider: row.provider,
    service_type: row.service_type,
    unit: row.unit,
    better: row.better,
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
          }
        : null,
    latest_vs_baseline:
      test && size !== null
        ? {
            size,
            size_ci_low: test.ci_low === null ? null : test.ci_low - 1,
            size_ci_high: test.ci_high === null ? null : test.ci_high - 1,
            direction: direction(size, row.better ?? "higher"),
          }
        : null,
    open_changes: Number(row.open_changes),
  };
}
