import { randomUUID } from "node:crypto";
import type { EngineLog } from "../engine-log.js";
import { LeaseLoop } from "../lease-loop.js";
import type { NewEvent } from "../model/events.js";
import { type ChangePointOptions, CHANGE_POINT_DEFAULTS, checkNewPoint, direction } from "../results/change-points.js";
import type { ChangeWithSeries } from "../store/series-repository.js";
import type { Store } from "../store/store.js";
import { type ChangeView, changeView } from "./change-view.js";
import { factsChanged } from "./facts-changed.js";

/** Told once of each change recorded, by the process that recorded it (the webhooks' sink). */
export type OnChange = (change: ChangeView, context: { plan_id: string | null }) => void | Promise<void>;

export interface ChangeCheckerOptions {
  /** How often unchecked points are looked for (besides wake-ups). Default 2 s. */
  intervalMs?: number;
  /** Points claimed at once. Default 100. */
  batch?: number;
  /** The change-point test's settings, and how many of a series' latest points it reads (default CHANGE_POINT_DEFAULTS.window). */
  changePoints?: ChangePointOptions & { window?: number };
}

/**
 * This process's checker of new points: it claims points nobody checked (a conditional update
 * skipping rows another checker is claiming, so several servers on one PostgreSQL share the
 * work) and looks for change points in each claimed series' latest window. A change found is
 * recorded once however many checkers find it (see SeriesRepository.recordChange); only its
 * recorder appends its event and calls `onChange`. Found again as more points arrive (it may
 * then move by a point or two: with few points after a change E-divisive may place it early), it
 * is refined in place, its size and facts told with the points known then; a refinement that
 * moves its point or its size (a new `revision`) is told again, as the same change (same id),
 * so that a receiver told of it early learns where it settled. A point claimed by a checker that dies before
 * checking it is not checked again: the next point's check reads the same window.
 */
export class ChangeChecker {
  readonly #store: Store;
  readonly #log: EngineLog;
  readonly #onChange: OnChange;
  readonly #batch: number;
  readonly #changePoints: ChangePointOptions & { window?: number };
  readonly #loop: LeaseLoop;

  constructor(collaborators: { store: Store; log: EngineLog; onChange?: OnChange }, options: ChangeCheckerOptions = {}) {
    this.#store = collaborators.store;
    this.#log = collaborators.log;
    this.#onChange = collaborators.onChange ?? (() => {});
    this.#batch = options.batch ?? 100;
    this.#changePoints = options.changePoints ?? {};
    // Until no unchecked point is left.
    const look = async () => {
      while (!this.#loop.stopped && (await this.checkOnce()) > 0);
    };
    this.#loop = new LeaseLoop({ look, everyMs: options.intervalMs ?? 2_000, log: this.#log, what: "checking series for changes" });
  }

  /** Starts checking, now and every `intervalMs`. */
  start(): void {
    if (!this.#loop.stopped) this.#loop.start();
  }

  /** Checks now (after the check under way), until no unchecked point is left. */
  wake(): Promise<void> {
    return this.#loop.wake();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Claims a batch of unchecked points and checks their series; answers how many points it claimed. */
  async checkOnce(): Promise<number> {
    const claimed = await this.#store.series.claimUnchecked(this.#batch);
    // A series' latest claimed point's window holds what its earlier ones' would show.
    const latest = new Map<string, number>();
    for (const p of claimed) latest.set(p.series_id, Math.max(latest.get(p.series_id) ?? 0, Number(p.seq)));
    for (const [seriesId, seq] of latest) await this.checkSeries(seriesId, seq);
    return claimed.length;
  }

  /** Looks for changes in the window of `seriesId` that ends at point `seq`, and records those not recorded. */
  async checkSeries(seriesId: string, seq: number): Promise<ChangeView[]> {
    const window = this.#changePoints.window ?? CHANGE_POINT_DEFAULTS.window;
    const rows = await this.#store.series.windowMeans(seriesId, seq, window);
    const { window_start: window0, change_points: found } = checkNewPoint(
      rows.map((r) => r.mean),
      this.#changePoints,
    );
    if (found.length === 0) return [];
    const seqs = rows.map((r) => Number(r.seq));
    const points = await this.#store.series.pointsBetween(seriesId, seqs[0], seqs[seqs.length - 1]);
    const bySeq = new Map(points.map((p) => [Number(p.seq), p]));
    const bounds = [0, ...found.map((c) => c.index - window0), seqs.length];
    const better = await this.#store.series.better(seriesId);
    // Two changes are at least a segment apart: one found closer to a recorded one is that change, refined.
    const minSegment = this.#changePoints.minSegment ?? CHANGE_POINT_DEFAULTS.minSegment;
    const recorded: ChangeView[] = [];
    for (const [i, change] of found.entries()) {
      const segment = (from: number, to: number) => seqs.slice(from, to).flatMap((s) => bySeq.get(s) ?? []);
      const first = bySeq.get(seqs[change.index - window0]);
      if (!first) continue;
      const recordedNow = await this.#store.series.recordChange(
        {
          id: randomUUID(),
          series_id: seriesId,
          point_seq: Number(first.seq),
          at: first.at,
          execution_id: first.execution_id,
          ingest_id: first.ingest_id,
          // A metric whose definition does not say which way is better is read as higher-is-better, as most figures (throughputs) are.
          direction: direction(change.size, better ?? "higher"),
          size: change.size,
          size_ci_low: change.size_ci_low,
          size_ci_high: change.size_ci_high,
          p_value: change.p_value,
          before: change.before,
          after: change.after,
          facts_changed: factsChanged(segment(bounds[i], bounds[i + 1]), segment(bounds[i + 1], bounds[i + 2])),
        },
        minSegment,
        changeDetected,
      );
      if (!recordedNow?.inserted && !recordedNow?.revised) continue;
      const view = changeView(recordedNow.change);
      recorded.push(view);
      const revised = recordedNow.revised ? ` (revision ${view.revision}, refined)` : "";
      this.#log(`series ${seriesId}: ${view.direction} of ${(view.size * 100).toFixed(1)}% at point ${view.seq}${revised}`, { level: "warn" });
      await this.#tell(view, first.plan_run_id);
    }
    return recorded;
  }

  async #tell(view: ChangeView, planRunId: string | null): Promise<void> {
    try {
      const plan_id = planRunId ? await this.#store.series.planOfRun(planRunId) : null;
      await this.#onChange(view, { plan_id });
    } catch (e) {
      this.#log(`the alert of change ${view.id} failed: ${(e as Error).message}`, { level: "warn" });
    }
  }
}

function changeDetected(row: ChangeWithSeries): NewEvent {
  return {
    type: "change.detected",
    session_id: null,
    execution_id: row.execution_id,
    // A refinement told again names its revision; the first telling stays as it was.
    data: { change_id: row.id, series_id: row.series_id, direction: row.direction, size: row.size, ...(row.revision > 1 ? { revision: row.revision } : {}) },
  };
}
