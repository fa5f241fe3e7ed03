import type { Change, FactChange, Series, SeriesPoint } from "@benchwright/sdk";
import { codeMeasuredText } from "./branch-text.js";
import { figure, spread } from "./figures.js";
import { table, tagsText } from "./tables.js";

type Identity = Pick<Series, "benchmark" | "metric" | "target">;

/** `+4.1%`, `-10.0%`: a relative size as a person reads it (0.041 is 4.1% more). */
function percent(size: number): string {
  const p = (size * 100).toFixed(1);
  return `${size > 0 ? "+" : ""}${p}%`;
}

/** `-10.0% [-10.4%, -9.7%]`: a size with its interval when it has one. */
function sizeText(size: number, low: number | null, high: number | null): string {
  return low === null || high === null ? percent(size) : `${percent(size)} [${percent(low)}, ${percent(high)}]`;
}

/**
 * `2160.4 ± 11.5`: a mean with the half-width of its 95% interval (none with a single
 * repetition), to three digits as `compare` writes it: the bounds to six digits each were noise.
 */
function meanText(p: Pick<SeriesPoint, "mean" | "ci_low" | "ci_high">): string {
  return p.ci_low === null || p.ci_high === null ? figure(p.mean) : `${figure(p.mean)} ± ${spread((p.ci_high - p.ci_low) / 2)}`;
}

/** `sysbench/cpu_10000 (threads=2) events_per_second{threads=2} on local/default`: what a series follows. */
function identityText(s: Identity): string {
  const tags = tagsText(s.metric.tags);
  return `${benchmarkText(s.benchmark)} ${s.metric.name}${tags ? `{${tags}}` : ""} on ${s.target.provider}/${s.target.service_type}`;
}

/** `tool_version: sysbench 1.0.20+ds-5 → sysbench 1.0.20+ds-6`, one line per fact; `-` when none changed. */
function factsChangedText(facts: FactChange[]): string {
  if (facts.length === 0) return "-";
  return facts.map((f) => `${f.fact}: ${f.before.join(", ") || "?"} → ${f.after.join(", ") || "?"}`).join("\n");
}

/** `sysbench/cpu_10000 (events=10000, threads=2)`: two series of one workload differ by their params. */
function benchmarkText(b: Identity["benchmark"]): string {
  const params = tagsText(b.params);
  return `${b.tool}/${b.workload}${params ? ` (${params})` : ""}`;
}

export function seriesTable(series: Series[]): string {
  return table(
    ["ID", "BENCHMARK", "METRIC", "TARGET", "POINTS", "LATEST", "UNIT", "OPEN CHANGES"],
    series.map((s) => [
      s.id,
      benchmarkText(s.benchmark),
      `${s.metric.name}${Object.keys(s.metric.tags).length ? ` {${tagsText(s.metric.tags)}}` : ""}`,
      `${s.target.provider}/${s.target.service_type}`,
      s.points,
      s.latest ? meanText(s.latest) : "-",
      s.metric.unit,
      s.open_changes,
    ]),
  );
}

/** One series as `series <id>` shows it: its identity, latest point, baseline and how the latest level compares. */
export function seriesRecord(s: Series): string {
  const baseline = s.baseline
    ? `points ${s.baseline.from}-${s.baseline.to} (${s.baseline.n}): ${meanText(s.baseline)}`
    : "(none: set one with --baseline <from>[-<to>])";
  const vs = s.latest_vs_baseline;
  return table(
    ["FIELD", "VALUE"],
    [
      ["id", s.id],
      ["benchmark", benchmarkText(s.benchmark)],
      [
        "metric",
        `${s.metric.name}${Object.keys(s.metric.tags).length ? ` {${tagsText(s.metric.tags)}}` : ""} in ${s.metric.unit}, ${s.metric.better} is better`,
      ],
      ["target", `${s.target.provider}/${s.target.service_type}`],
      ["points", s.points === 0 ? "0" : `${s.points}, ${s.first_at} to ${s.last_at}`],
      ["latest", s.latest ? `#${s.latest.seq} ${meanText(s.latest)} (n=${s.latest.n}) at ${s.latest.at}` : "-"],
      ["baseline", baseline],
      ["vs baseline", vs ? `${sizeText(vs.size, vs.size_ci_low, vs.size_ci_high)} ${vs.direction ?? "no clear difference"}` : "-"],
      ...(vs?.claim ? [["verdict", `${vs.claim.verdict}: ${vs.claim.sentence}`] as [string, string]] : []),
      ["open changes", s.open_changes],
    ],
  );
}

/**
 * The points with their interval and a mark where a change starts a new level; the code each
 * measured (branch and commit) when any point's client named it, as a CI's do.
 */
export function pointsTable(points: SeriesPoint[], changes: Change[]): string {
  if (points.length === 0) return "(no points yet)";
  const bySeq = new Map(changes.map((c) => [c.seq, c]));
  const withCode = points.some((p) => p.branch || p.commit);
  return table(
    ["SEQ", "AT", "MEAN ± 95%", "N", "CHANGE", ...(withCode ? ["CODE"] : [])],
    points.map((p) => {
      const c = bySeq.get(p.seq);
      const row = [p.seq, p.at, meanText(p), p.n, c ? `${c.direction} ${percent(c.size)}` : ""];
      return withCode ? [...row, codeMeasuredText(p, true) ?? "-"] : row;
    }),
  );
}

/** A series' changes, or the regressions of every series (`withSeries`): where, how big, what changed with them. */
export function changesTable(changes: Change[], withSeries: boolean): string {
  if (changes.length === 0) return "(no changes)";
  return table(
    ["ID", ...(withSeries ? ["SERIES"] : []), "POINT", "DIRECTION", "SIZE [95%]", "BEFORE → AFTER", "FACTS CHANGED", "STATE"],
    changes.map((c) => [
      c.id,
      ...(withSeries ? [`${identityText(c.series)}\n${c.series_id}`] : []),
      `#${c.seq} at ${c.at}`,
      c.direction,
      sizeText(c.size, c.size_ci_low, c.size_ci_high),
      `${figure(c.before.mean)} → ${figure(c.after.mean)} ${c.series.metric.unit}`,
      factsChangedText(c.facts_changed),
      c.state,
    ]),
  );
}
