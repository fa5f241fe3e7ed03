import type { Gate, GateCell, GateCreate } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { decideClaims, type RatioEstimate } from "../results/claims.js";
import type { GatePointRow } from "../store/gate-points-repository.js";
import type { Store } from "../store/store.js";
import { gateEstimate, pairEstimate } from "./gate-cell.js";
import { cellOf, type GateBaseline } from "./gate-view.js";

/** The history a gate compares with when the request does not say: the last 10 points, a margin of 5%, 95% confidence. */
const GATE_DEFAULTS = { last: 10, margin: 0.05, confidence: 0.95 } as const;
/** A branch with fewer points than this is compared with its base branch's history instead (its start point). */
const MIN_HISTORY = 2;

/**
 * A CI's gate: each point an ingest (or executions: a plan run's cells, a job's runs) added is
 * compared with the recent history of its series on a branch (the point's own, or one named),
 * or with the point of the same benchmark on another target of the same run, and read with the
 * claims a comparison makes (better, worse, equivalent, not_worse, not_better, inconclusive at a
 * margin; claims.ts), adjusted together across the gate's points. A branch that has no history
 * yet (its first runs) is compared with its base branch's, so a feature branch is gated from its
 * first run.
 */
export class Gates {
  constructor(private readonly store: Store) {}

  async gate(body: GateCreate, visibleTo?: string): Promise<Gate> {
    checkRequest(body);
    const margin = body.margin ?? GATE_DEFAULTS.margin;
    const confidence = body.confidence ?? GATE_DEFAULTS.confidence;
    const points = body.ingest_id ? await this.#ingestPoints(body.ingest_id, visibleTo) : await this.#executionPoints(body, visibleTo);
    const baselineOf = body.baseline?.execution_ids ? await this.#targetBaselines(body.baseline.execution_ids) : await this.#historyBaselines(body);
    const compared = await Promise.all(
      points.map(async (point) => {
        const baseline = await baselineOf(point);
        const estimate = !baseline
          ? null
          : baseline.kind === "history"
            ? gateEstimate(point, baseline.means, confidence)
            : pairEstimate(point, baseline.point, confidence);
        return { point, baseline, estimate };
      }),
    );
    const withEstimate = compared.filter((c): c is typeof c & { estimate: RatioEstimate } => c.estimate !== null);
    const claims = decideClaims(
      withEstimate.map((c) => ({ estimate: c.estimate, better: c.point.series.better ?? "higher" })),
      margin,
      confidence,
    );
    const claimOf = new Map(withEstimate.map((c, i) => [c, claims[i]]));
    const cells = compared.map((c) => cellOf(c.point, c.baseline, c.estimate, claimOf.get(c as (typeof withEstimate)[number]), confidence));
    const worse = cells.filter((c) => c.verdict === "worse").length;
    const inconclusive = cells.filter((c) => c.verdict === "inconclusive").length;
    const rank = (c: GateCell) => (c.verdict === "worse" ? 0 : c.verdict === "inconclusive" ? 1 : 2);
    return {
      ingest_id: body.ingest_id ?? null,
      execution_ids: body.execution_ids ?? [],
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

  async #ingestPoints(ingestId: string, visibleTo: string | undefined): Promise<GatePointRow[]> {
    const owner = await this.store.ingests.owner(ingestId);
    if (owner === undefined) throw new BenchwrightError("not_found", `No ingest ${ingestId}`);
    if (visibleTo !== undefined && owner !== visibleTo) throw new BenchwrightError("forbidden", `The ingest ${ingestId} is another principal's`);
    return this.store.gatePoints.ofIngest(ingestId);
  }

  /** The points of the executions gated (not those that are the baseline), each execution readable by `visibleTo`. */
  async #executionPoints(body: GateCreate, visibleTo: string | undefined): Promise<GatePointRow[]> {
    const ids = body.execution_ids!;
    const baseIds = body.baseline?.execution_ids ?? [];
    const readable = await this.store.gatePoints.readable([...ids, ...baseIds], visibleTo);
    const missing = [...ids, ...baseIds].find((id) => !readable.has(id));
    if (missing) throw new BenchwrightError("not_found", `No execution ${missing}`);
    const base = new Set(baseIds);
    return this.store.gatePoints.ofExecutions(ids.filter((id) => !base.has(id)));
  }

  /** Each point's history on the baseline's branch, or on its fallback (base) branch when that has too few points. */
  async #historyBaselines(body: GateCreate): Promise<(point: GatePointRow) => Promise<GateBaseline | null>> {
    const last = body.baseline?.last ?? GATE_DEFAULTS.last;
    const since = body.baseline?.since ? new Date(`${body.baseline.since.replace(" ", "T")}Z`) : null;
    const exclude = { ingest: body.ingest_id ?? null, executions: body.execution_ids ?? [] };
    return async (point) => {
      const branches = [body.baseline?.branch ?? point.branch, body.baseline?.fallback_branch].filter((b): b is string => !!b);
      for (const branch of new Set(branches)) {
        const rows = await this.store.gatePoints.history({ seriesId: point.series_id, branch, beforeSeq: Number(point.seq), exclude, last, since });
        if (rows.length >= MIN_HISTORY)
          return { kind: "history", branch, means: rows.map((r) => r.mean).reverse(), seqs: rows.map((r) => Number(r.seq)).reverse() };
      }
      return null;
    };
  }

  /** Each point's match among the baseline executions' points: the same benchmark, params and metric (a target of the same run). */
  async #targetBaselines(baseIds: readonly string[]): Promise<(point: GatePointRow) => Promise<GateBaseline | null>> {
    const byKey = new Map((await this.store.gatePoints.ofExecutions(baseIds)).map((p) => [benchmarkKey(p), p]));
    return async (point) => {
      const match = byKey.get(benchmarkKey(point));
      return match ? { kind: "target", point: match } : null;
    };
  }
}

/** What makes two targets' points the same cell: the series' identity but its target. */
const benchmarkKey = (p: GatePointRow) => JSON.stringify([p.series.tool, p.series.workload, p.series.params, p.series.metric, p.series.tags]);

/** Exactly one of an ingest and executions; a baseline of executions only for executions, and not with a branch's history's settings. */
function checkRequest(body: GateCreate): void {
  const errors: Array<{ path: string; message: string }> = [];
  if (!body.ingest_id === !body.execution_ids) errors.push({ path: "/body", message: "must name exactly one of ingest_id and execution_ids" });
  if (body.baseline?.execution_ids) {
    if (!body.execution_ids) errors.push({ path: "/body/baseline/execution_ids", message: "compares executions with executions: give execution_ids" });
    for (const key of ["branch", "fallback_branch", "last", "since"] as const)
      if (body.baseline[key] !== undefined) errors.push({ path: `/body/baseline/${key}`, message: "is a branch's history: not with baseline.execution_ids" });
  }
  if (errors.length) throw new BenchwrightError("validation_failed", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors });
}
