import type { components } from "@benchwright/contract";
import type { StoredMetric } from "../model/metrics.js";
import { ratioEstimate } from "./claims.js";
import { type ClaimInput, claimsOf, MULTIPLICITY, sideOf, variabilityOf } from "./figure-claims.js";
import { meanEstimate, nestedSummary } from "./nested-summary.js";
import { warmupRuns } from "./robust.js";
import { compareSamples, summarize } from "./statistics.js";
import { paramsDiffer } from "./params-differ.js";
import { toolVersionsDiffer } from "./tool-versions.js";

export type Comparison = components["schemas"]["Comparison"];
type ComparedMetric = components["schemas"]["ComparedMetric"];
type MetricFigure = components["schemas"]["MetricFigure"];
type Verdict = MetricFigure["verdict"];

/** What a comparison needs of an execution: its record and its session's provider. */
export interface ComparedRow {
  id: string;
  session_id: string;
  provider: string;
  service_type: string;
  tool_id: string;
  workload_id: string;
  state: string;
  params: Record<string, unknown>;
  exec_env: { vms: Array<components["schemas"]["Vm"]> };
  /** The figures of its last successful run: one per repetition, machine and tag set. */
  metrics: StoredMetric[];
  /** What produced those figures, when that run recorded it. */
  provenance?: components["schemas"]["Provenance"] | null;
}

/**
 * Compares each execution's figures with the baseline's, metric by metric. A metric is a name
 * and its tags (`events_per_second` at `threads=4`); its sample is every figure of that key in
 * the execution's last successful run: one per repetition (and per machine, where several
 * measured it). A name that each execution measured under one tag set only is one metric
 * whatever its tags: one side run with `threads=1` and the other with `threads=2` compare,
 * each figure showing its own tags. The verdict reads `better` from the metric's declaration: a ratio above 1 is
 * better for a `higher` metric and worse for a `lower` one, when Welch's test says the
 * difference is significant at the confidence asked for. Sides of one tool whose recorded
 * versions differ are listed in `tool_versions_differ`, and sides of one workload whose params
 * differ in `params_differ`: warnings, the figures stand.
 */
/**
 * What a comparison may also be asked: a `margin` for claims (figure-claims.ts), and `warmup`,
 * the leading runs of each machine to leave out (a count, or `auto`: as many as MSER finds).
 */
export interface CompareOptions {
  margin?: number;
  warmup?: Warmup;
}
export type Warmup = number | "auto";

export function compareExecutions(
  rows: ComparedRow[],
  baselineId: string,
  confidence: number,
  minDifference = 0,
  { margin, warmup }: CompareOptions = {},
): Comparison {
  const { comparison, claimInputs } = compareWithClaimInputs(rows, baselineId, confidence, minDifference, labelsOf(rows), warmup);
  const claimMargin = margin ?? (minDifference || undefined);
  if (claimMargin === undefined) return comparison;
  const figures = comparison.metrics.flatMap((m) => m.figures);
  const claims = claimsOf(
    figures.map((f) => claimInputs.get(f)),
    claimMargin,
    confidence,
  );
  figures.forEach((f, i) => {
    if (claims[i]) f.claim = claims[i];
  });
  return { ...comparison, margin: claimMargin, multiplicity: MULTIPLICITY };
}

/** How each execution is named in a claim's sentence: its provider and service type, with its id's start where two share them. */
function labelsOf(rows: readonly ComparedRow[]): Map<string, string> {
  const base = rows.map((r) => `${r.provider}/${r.service_type}`);
  return new Map(rows.map((r, i) => [r.id, base.filter((b) => b === base[i]).length > 1 ? `${base[i]} (${r.id.slice(0, 8)})` : base[i]]));
}

/**
 * The comparison without claims, and what each figure's claim needs: a report decides the claims
 * of all its cells together (plan-report.ts), a comparison those of its figures.
 */
export function compareWithClaimInputs(
  rows: ComparedRow[],
  baselineId: string,
  confidence: number,
  minDifference = 0,
  labels: ReadonlyMap<string, string> = labelsOf(rows),
  warmup?: Warmup,
): { comparison: Comparison; claimInputs: Map<MetricFigure, ClaimInput> } {
  const claimInputs = new Map<MetricFigure, ClaimInput>();
  const baseline = rows.find((r) => r.id === baselineId)!;
  const byName = namesUnderOneTagSet(rows);
  const samples = rows.map((r) => withoutWarmup(samplesOf(r.metrics, byName), warmup));
  const keys = new Map<string, StoredMetric>();
  for (const byKey of samples) for (const [key, s] of byKey) if (!keys.has(key)) keys.set(key, s.first);
  const baseSamples = samples[rows.indexOf(baseline)];

  const metrics: ComparedMetric[] = [...keys].map(([key, first]) => {
    const base = baseSamples.get(key);
    const baseSummary = base ? summarize(base.values, confidence) : undefined;
    const baseNested = base ? nestedSummary([...base.machines.values()], confidence) : undefined;
    const figures = rows.flatMap((row, i): MetricFigure[] => {
      const sample = samples[i].get(key);
      if (!sample) return [];
      const summary = summarize(sample.values, confidence);
      const groups = [...sample.machines.values()];
      const nested = nestedSummary(groups, confidence);
      const variability = { ...variabilityOf(nested, groups, confidence), warmup_discarded: sample.warmupDiscarded ?? 0 };
      const figure = { execution_id: row.id, tags: sample.first.tags ?? {}, ...withoutCv(summary), values: sample.values, variability };
      if (row.id === baseline.id)
        return [{ ...figure, ratio: 1, ratio_ci_low: null, ratio_ci_high: null, p_value: null, significant: false, verdict: "baseline" }];
      if (!baseSummary || !base || !baseNested)
        return [{ ...figure, ratio: null, ratio_ci_low: null, ratio_ci_high: null, p_value: null, significant: false, verdict: "unknown" }];
      const test = compareSamples(baseSummary, summary, confidence);
      // A difference too small to matter (within minDifference of a ratio of 1) is none, however sure the test is of it.
      const significant = test.p_value !== null && test.p_value < 1 - confidence && Math.abs(test.ratio - 1) >= minDifference;
      const compared: MetricFigure = {
        ...figure,
        ratio: Number.isFinite(test.ratio) ? test.ratio : null,
        ratio_ci_low: test.ci_low,
        ratio_ci_high: test.ci_high,
        p_value: test.p_value,
        significant,
        verdict: verdictOf(test.p_value, significant, summary.mean - baseSummary.mean, first.better),
      };
      claimInputs.set(compared, {
        // The claim's ratio is of the machines' means, its error from their spread (the figure's own ratio pools the runs, as it always has).
        estimate: ratioEstimate(meanEstimate([...base.machines.values()]), meanEstimate([...sample.machines.values()])),
        better: first.better,
        metric: first.name,
        subject: sideOf(labels.get(row.id) ?? row.id, nested),
        baseline: sideOf(labels.get(baseline.id) ?? baseline.id, baseNested),
      });
      return [compared];
    });
    return {
      name: first.name,
      unit: first.unit,
      ...(first.better ? { better: first.better } : {}),
      tags: sharedTags(figures.map((f) => f.tags ?? {})),
      figures,
    };
  });

  const comparison: Comparison = {
    baseline: baseline.id,
    confidence,
    ...(warmup !== undefined ? { warmup: String(warmup) } : {}),
    ...(minDifference ? { min_difference: minDifference } : {}),
    executions: rows.map((r) => ({
      id: r.id,
      session_id: r.session_id,
      provider: r.provider,
      service_type: r.service_type,
      tool: r.tool_id,
      workload: r.workload_id,
      state: r.state as components["schemas"]["ExecutionStateName"],
      params: r.params,
      machines: r.exec_env.vms ?? [],
      ...(r.provenance ? { provenance: r.provenance } : {}),
    })),
    metrics,
    tool_versions_differ: toolVersionsDiffer(rows),
    params_differ: paramsDiffer(rows),
  };
  return { comparison, claimInputs };
}

function verdictOf(pValue: number | null, significant: boolean, difference: number, better: StoredMetric["better"]): Verdict {
  if (pValue === null) return "unknown";
  if (!significant || difference === 0) return "no_difference";
  if (!better) return difference > 0 ? "higher" : "lower";
  return difference > 0 === (better === "higher") ? "better" : "worse";
}

function withoutCv<T extends { cv: number }>(summary: T): Omit<T, "cv"> {
  const { cv: _cv, ...rest } = summary;
  return rest;
}

/** A metric's key: its name and its tags, in a stable order. */
export function metricKey(m: Pick<StoredMetric, "name" | "tags">): string {
  const tags = Object.entries(m.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([m.name, tags]);
}

/** The names that every execution measured under one tag set at most. */
function namesUnderOneTagSet(rows: ComparedRow[]): Set<string> {
  const sets = new Map<string, boolean>();
  for (const row of rows) {
    const keys = new Map<string, Set<string>>();
    for (const m of row.metrics) keys.set(m.name, (keys.get(m.name) ?? new Set()).add(metricKey(m)));
    for (const [name, k] of keys) sets.set(name, (sets.get(name) ?? true) && k.size === 1);
  }
  return new Set([...sets].filter(([, one]) => one).map(([name]) => name));
}

/** The tags whose values all the figures share. */
function sharedTags(all: Array<Record<string, string>>): Record<string, string> {
  const [first = {}, ...rest] = all;
  return Object.fromEntries(Object.entries(first).filter(([k, v]) => rest.every((t) => t[k] === v)));
}

type Sample = { first: StoredMetric; values: number[]; machines: Map<string, number[]>; warmupDiscarded?: number };

/**
 * The samples without each machine's first runs: `warmup` of them, or as many as MSER finds
 * (`auto`); a machine keeps its last run whatever the count.
 */
function withoutWarmup(samples: Map<string, Sample>, warmup: Warmup | undefined): Map<string, Sample> {
  if (warmup === undefined || warmup === 0) return samples;
  return new Map(
    [...samples].map(([key, s]) => {
      let discarded = 0;
      const machines = new Map(
        [...s.machines].map(([vm, values]) => {
          const d = Math.min(warmup === "auto" ? warmupRuns(values) : warmup, values.length - 1);
          discarded += d;
          return [vm, values.slice(d)];
        }),
      );
      return [key, { ...s, machines, values: [...machines.values()].flat(), warmupDiscarded: discarded }];
    }),
  );
}

/** Each metric's values, in all and by the machine that measured them (the nested model's groups). */
function samplesOf(metrics: StoredMetric[], byName: Set<string>): Map<string, Sample> {
  const out = new Map<string, Sample>();
  for (const m of metrics) {
    const key = byName.has(m.name) ? JSON.stringify([m.name]) : metricKey(m);
    const entry = out.get(key) ?? { first: m, values: [], machines: new Map<string, number[]>() };
    entry.values.push(m.value);
    const machine = m.vm ?? "";
    entry.machines.set(machine, [...(entry.machines.get(machine) ?? []), m.value]);
    out.set(key, entry);
  }
  return out;
}
