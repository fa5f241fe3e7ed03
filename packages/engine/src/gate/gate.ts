import type { Gate, GateCell, GateCreate } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { type Claim, claimSentence, decideClaims, type RatioEstimate } from "../results/claims.js";
import { seriesIdentity } from "../series/series-identity.js";
import type { IngestPointRow } from "../store/ingests-repository.js";
import type { Store } from "../store/store.js";
import { gateEstimate, ratioInterval } from "./gate-cell.js";

/** The history a gate compares with when the request does not say: the last 10 points, a margin of 5%, 95% confidence. */
const GATE_DEFAULTS = { last: 10, margin: 0.05, confidence: 0.95 } as const;
/** A branch with fewer points than this is compared with its base branch's history instead (its start point). */
const MIN_HISTORY = 2;

/**
 * A CI's gate: each point an ingest added is compared with the recent history of its series on a
 * branch (the point's own, or one named), and read with the claims a comparison makes (better,
 * worse, equivalent, not_worse, not_better, inconclusive at a margin; claims.ts), adjusted
 * together across the ingest's points. A branch that has no history yet (its first runs) is
 * compared with its base branch's, so a feature branch is gated from its first run.
 */
export class Gates {
  constructor(private readonly store: Store) {}

  async gate(body: GateCreate, visibleTo?: string): Promise<Gate> {
    const owner = await this.store.ingests.owner(body.ingest_id);
    if (owner === undefined) throw new BenchwrightError("not_found", `No ingest ${body.ingest_id}`);
    if (visibleTo !== undefined && owner !== visibleTo) throw new BenchwrightError("forbidden", `The ingest ${body.ingest_id} is another principal's`);
    const margin = body.margin ?? GATE_DEFAULTS.margin;
    const confidence = body.confidence ?? GATE_DEFAULTS.confidence;
    const last = body.baseline?.last ?? GATE_DEFAULTS.last;
    const since = body.baseline?.since ? new Date(`${body.baseline.since.replace(" ", "T")}Z`) : null;
    const points = await this.store.ingests.points(body.ingest_id);
    const compared = await Promise.all(
      points.map(async (point) => {
        const history = await this.#history(point, body, last, since);
        return { point, history, estimate: history ? gateEstimate(point, history.means, confidence) : null };
      }),
    );
    const withEstimate = compared.filter((c): c is typeof c & { estimate: RatioEstimate } => c.estimate !== null);
    const claims = decideClaims(
      withEstimate.map((c) => ({ estimate: c.estimate, better: c.point.series.better ?? "higher" })),
      margin,
      confidence,
    );
    const claimOf = new Map(withEstimate.map((c, i) => [c, claims[i]]));
    const cells = compared.map((c) => cellOf(c.point, c.history, c.estimate, claimOf.get(c as (typeof withEstimate)[number]), confidence));
    const worse = cells.filter((c) => c.verdict === "worse").length;
    const inconclusive = cells.filter((c) => c.verdict === "inconclusive").length;
    const rank = (c: GateCell) => (c.verdict === "worse" ? 0 : c.verdict === "inconclusive" ? 1 : 2);
    return {
      ingest_id: body.ingest_id,
      branch: points[0]?.branch ?? null,
      commit: points[0]?.commit_id ?? null,
      margin,
      confidence,
      outcome: worse > 0 ? "worse" : inconclusive > 0 ? "inconclusive" : "pass",
      worse,
      inconclusive,
      cells: cells.sort((a, b) => rank(a) - rank(b)),
    };
  }

  /** The history of the point's series on the baseline's branch, or on its fallback (base) branch when that has too few points. */
  async #history(
    point: IngestPointRow,
    body: GateCreate,
    last: number,
    since: Date | null,
  ): Promise<{ branch: string; means: number[]; seqs: number[] } | null> {
    const branches = [body.baseline?.branch ?? point.branch, body.baseline?.fallback_branch].filter((b): b is string => !!b);
    for (const branch of new Set(branches)) {
      const rows = await this.store.ingests.history({ seriesId: point.series_id, branch, beforeSeq: Number(point.seq), exclude: point.ingest_id, last, since });
      if (rows.length >= MIN_HISTORY) return { branch, means: rows.map((r) => r.mean).reverse(), seqs: rows.map((r) => Number(r.seq)).reverse() };
    }
    return null;
  }
}

function cellOf(
  point: IngestPointRow,
  history: { branch: string; means: number[]; seqs: number[] } | null,
  estimate: RatioEstimate | null,
  claim: Claim | undefined,
  confidence: number,
): GateCell {
  const identity = seriesIdentity(point.series);
  const metric = Object.keys(identity.metric.tags).length
    ? `${identity.metric.name} {${Object.entries(identity.metric.tags)
        .map(([k, v]) => `${k}=${v}`)
        .join(", ")}}`
    : identity.metric.name;
  const current = { n: Number(point.n), mean: point.mean, ci_low: point.ci_low, ci_high: point.ci_high };
  const baseMean = history ? history.means.reduce((a, b) => a + b, 0) / history.means.length : null;
  const baseline =
    history && baseMean !== null
      ? { branch: history.branch, points: history.means.length, from_seq: history.seqs[0], to_seq: history.seqs[history.seqs.length - 1], mean: baseMean }
      : null;
  const common = {
    series_id: point.series_id,
    seq: Number(point.seq),
    benchmark: identity.benchmark,
    metric: identity.metric,
    target: identity.target,
    current,
    baseline,
  };
  if (!estimate || !claim || !history) {
    const why = history ? `its history on ${history.branch} has no spread to compare with` : "no branch holds at least 2 earlier points of it to compare with";
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
  const label = point.branch ? `${point.branch}${point.commit_id ? ` (${point.commit_id.slice(0, 8)})` : ""}` : "this run";
  const sentence = claimSentence(claim, estimate, {
    subject: { label, machines: 1, runs: Number(point.n), between_cv: null },
    baseline: { label: `${history.branch}'s last ${history.means.length} points`, machines: 1, runs: history.means.length, between_cv: null },
    metric,
    better: identity.metric.better,
    confidence,
  });
  return { ...common, ratio: estimate.ratio, ratio_ci_low: ci.low, ratio_ci_high: ci.high, verdict: claim.verdict, p_value: claim.p_adjusted, sentence };
}
