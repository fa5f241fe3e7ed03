import type { GateCell } from "@benchwright/contract";
import { type Claim, claimSentence, type RatioEstimate } from "../results/claims.js";
import { seriesIdentity } from "../series/series-identity.js";
import type { GatePointRow } from "../store/gate-points-repository.js";
import { ratioInterval } from "./gate-cell.js";

/** What a point is compared with: its series' history on a branch, or another target's point of the same run. */
export type GateBaseline = { kind: "history"; branch: string; means: number[]; seqs: number[] } | { kind: "target"; point: GatePointRow };

/** A metric's name with its tags, as a sentence names it. */
function metricLabel(point: GatePointRow): string {
  const { metric } = seriesIdentity(point.series);
  const tags = Object.entries(metric.tags);
  return tags.length ? `${metric.name} {${tags.map(([k, v]) => `${k}=${v}`).join(", ")}}` : metric.name;
}

/** Where a point ran, as a sentence names it: its plan run's target label, else its series' target. */
function targetLabel(point: GatePointRow): string {
  return point.run_target ?? `${point.series.provider}/${point.series.service_type}`;
}

function baselineView(b: GateBaseline | null): GateCell["baseline"] {
  if (!b) return null;
  if (b.kind === "target") {
    const p = b.point;
    const { target } = seriesIdentity(p.series);
    const seq = Number(p.seq);
    return {
      branch: null,
      series_id: p.series_id,
      target,
      execution_id: p.execution_id!,
      target_label: targetLabel(p),
      points: 1,
      from_seq: seq,
      to_seq: seq,
      mean: p.mean,
    };
  }
  const mean = b.means.reduce((a, x) => a + x, 0) / b.means.length;
  return { branch: b.branch, points: b.means.length, from_seq: b.seqs[0]!, to_seq: b.seqs[b.seqs.length - 1]!, mean };
}

/** A gate's cell: the point, what it was compared with, and the claim's verdict and sentence (inconclusive when there was nothing to compare with). */
export function cellOf(
  point: GatePointRow,
  baseline: GateBaseline | null,
  estimate: RatioEstimate | null,
  claim: Claim | undefined,
  confidence: number,
): GateCell {
  const identity = seriesIdentity(point.series);
  const metric = metricLabel(point);
  const common = {
    series_id: point.series_id,
    seq: Number(point.seq),
    benchmark: identity.benchmark,
    metric: identity.metric,
    target: identity.target,
    target_label: point.run_target,
    current: { n: Number(point.n), mean: point.mean, ci_low: point.ci_low, ci_high: point.ci_high },
    baseline: baselineView(baseline),
  };
  if (!estimate || !claim || !baseline) {
    const why = !baseline
      ? "no branch holds at least 2 earlier points of it to compare with"
      : baseline.kind === "history"
        ? `its history on ${baseline.branch} has no spread to compare with`
        : `it or ${targetLabel(baseline.point)}'s point has a single repetition (no spread to compare with)`;
    return {
      ...common,
      ratio: null,
      ratio_ci_low: null,
      ratio_ci_high: null,
      verdict: "inconclusive",
      p_value: null,
      sentence: `${metric} cannot be gated: ${why}.`,
    };
  }
  const ci = ratioInterval(estimate, confidence);
  const subject =
    baseline.kind === "target"
      ? targetLabel(point)
      : point.branch
        ? `${point.branch}${point.commit_id ? ` (${point.commit_id.slice(0, 8)})` : ""}`
        : "this run";
  const base =
    baseline.kind === "target"
      ? { label: targetLabel(baseline.point), machines: 1, runs: Number(baseline.point.n), between_cv: null }
      : { label: `${baseline.branch}'s last ${baseline.means.length} points`, machines: 1, runs: baseline.means.length, between_cv: null };
  const sentence = claimSentence(claim, estimate, {
    subject: { label: subject, machines: 1, runs: Number(point.n), between_cv: null },
    baseline: base,
    metric,
    better: identity.metric.better,
    confidence,
  });
  return { ...common, ratio: estimate.ratio, ratio_ci_low: ci.low, ratio_ci_high: ci.high, verdict: claim.verdict, p_value: claim.p_adjusted, sentence };
}
