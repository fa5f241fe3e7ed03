import type { RunFigure, SeriesChangeRow, SeriesPointRow, SeriesRow, StoredBaseline } from "../model/series.js";
import type { Db } from "./db.js";
import type { EventAppender } from "./event-appender.js";
import {
  acknowledgeChange,
  type ChangeFilter,
  changesPage,
  claimUncheckedPoints,
  insertChange,
  nearbyChange,
  refineChange,
  lockSeries,
  type NewChange,
  keepRunFacts,
  planOfRun,
  pointsBetween,
  pointsPage,
  recordRunPoints,
  type SeriesFilter,
  seriesPage,
  seriesBetter,
  seriesVisible,
  setBaseline,
  windowMeans,
} from "./sql/series-sql.js";
import { run } from "./sql/sql.js";
import type { NewEvent } from "../model/events.js";

/** A series as its view needs it: the row, its latest point, its open changes and the means a baseline compares. */
export interface SeriesWithFigures extends SeriesRow {
  latest: SeriesPointRow | null;
  open_changes: number;
  baseline_means: number[] | null;
  latest_means: number[] | null;
}

export type ChangeWithSeries = SeriesChangeRow & {
  series: Pick<SeriesRow, "tool" | "workload" | "params" | "metric" | "tags" | "provider" | "service_type" | "unit" | "better">;
};

/** The series of each metric over time, their points and the changes found in them. */
export class SeriesRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventAppender,
  ) {}

  /** Appends a successful run's points, in the transaction that records the run's end. */
  async recordRunPoints(tx: Db, executionId: string, at: Date, figures: RunFigure[]): Promise<void> {
    if (figures.length === 0) return;
    await run(tx, keepRunFacts(executionId));
    await run(tx, recordRunPoints(executionId, at, figures));
  }

  /** Marks up to `limit` unchecked points checked; they are the caller's to check. */
  async claimUnchecked(limit: number): Promise<Array<{ series_id: string; seq: number }>> {
    return run<{ series_id: string; seq: number }>(this.db, claimUncheckedPoints(limit));
  }

  async windowMeans(seriesId: string, uptoSeq: number, window: number): Promise<Array<{ seq: number; mean: number }>> {
    return run<{ seq: number; mean: number }>(this.db, windowMeans(seriesId, uptoSeq, window));
  }

  async pointsBetween(seriesId: string, fromSeq: number, toSeq: number): Promise<SeriesPointRow[]> {
    return run<SeriesPointRow>(this.db, pointsBetween(seriesId, fromSeq, toSeq));
  }

  /**
   * Records a change, or refines the same change recorded before (one closer than `near`
   * points: see nearbyChange), in one transaction; the series' row is held meanwhile so that two
   * checkers finding one change record it once. A new record, and a refinement that is a new
   * revision of it (see refineChange), gets the event `describe` makes of it. Answers the row,
   * whether this call inserted it and whether it revised it (null when the series is gone).
   */
  async recordChange(
    change: NewChange,
    near: number,
    describe: (row: ChangeWithSeries) => NewEvent,
  ): Promise<{ change: ChangeWithSeries; inserted: boolean; revised: boolean } | null> {
    return this.db.transaction(async (tx) => {
      const [series] = await run<SeriesRow>(tx, lockSeries(change.series_id));
      if (!series) return null;
      const [known] = await run<{ id: string; revision: number }>(tx, nearbyChange(change.series_id, change.point_seq, near));
      const [row] = await run<SeriesChangeRow>(tx, known ? refineChange(known.id, change) : insertChange(change));
      if (!row) return null;
      const full: ChangeWithSeries = {
        ...row,
        series: {
          tool: series.tool,
          workload: series.workload,
          params: series.params,
          metric: series.metric,
          tags: series.tags,
          provider: series.provider,
          service_type: series.service_type,
          unit: series.unit,
          better: series.better,
        },
      };
      const revised = known !== undefined && row.revision > known.revision;
      if (!known) await this.events.appendAll([describe(full)], tx);
      else if (revised) await this.events.appendAll([describe(full)], tx);
      return { change: full, inserted: !known, revised };
    });
  }

  async better(seriesId: string): Promise<"higher" | "lower" | null> {
    return (await run<{ better: "higher" | "lower" | null }>(this.db, seriesBetter(seriesId)))[0]?.better ?? null;
  }

  async planOfRun(planRunId: string): Promise<string | null> {
    return (await run<{ plan_id: string }>(this.db, planOfRun(planRunId)))[0]?.plan_id ?? null;
  }

  /** Series `filter` selects, in creation order; the means compared with a baseline are at most `latestCap` points. */
  async page(filter: SeriesFilter, latestCap: number): Promise<SeriesWithFigures[]> {
    return run<SeriesWithFigures>(this.db, seriesPage(filter, latestCap));
  }

  /** The series as `visibleTo` sees it (see seriesPage), or whole without; undefined when there is none to see. */
  async get(id: string, latestCap: number, visibleTo?: string): Promise<SeriesWithFigures | undefined> {
    return (await run<SeriesWithFigures>(this.db, seriesPage({ id, visibleTo }, latestCap)))[0];
  }

  /** Whether the series exists. */
  async exists(id: string): Promise<boolean> {
    return (await run(this.db, seriesBetter(id))).length > 0;
  }

  /** Whether the series holds a point `visibleTo` may read. */
  async visible(id: string, visibleTo: string): Promise<boolean> {
    return (await run(this.db, seriesVisible(id, visibleTo))).length > 0;
  }

  async points(seriesId: string, afterSeq: number | undefined, limit: number | undefined, visibleTo?: string, branch?: string): Promise<SeriesPointRow[]> {
    return run<SeriesPointRow>(this.db, pointsPage(seriesId, afterSeq, limit, visibleTo, branch));
  }

  /** False when there is no such series. */
  async setBaseline(seriesId: string, baseline: StoredBaseline | null): Promise<boolean> {
    return (await run(this.db, setBaseline(seriesId, baseline))).length > 0;
  }

  async changes(filter: ChangeFilter): Promise<ChangeWithSeries[]> {
    return run<ChangeWithSeries>(this.db, changesPage(filter));
  }

  async acknowledge(id: string): Promise<boolean> {
    return (await run(this.db, acknowledgeChange(id))).length > 0;
  }
}
