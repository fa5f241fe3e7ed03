import type { Change, Series, SeriesBaselineSet, SeriesPoint, operations } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { changeCursor, changeSeqOf, seriesCursor, seriesPointCursor, seriesPointSeqOf, seriesSeqOf } from "../lists/cursor.js";
import { type Page, pageOf, seqPageOf } from "../lists/list-query.js";
import { CHANGE_POINT_DEFAULTS } from "../results/change-points.js";
import type { Store } from "../store/store.js";
import { changeView } from "./change-view.js";
import { pointView, seriesView } from "./series-view.js";

type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;
type PageQuery = QueryOf<"listSeriesPoints">;
/** The filters and page of `GET /series/`. */
export type SeriesListQuery = QueryOf<"listSeries">;
/** The filters and page of `GET /changes/`. */
export type ChangeListQuery = QueryOf<"listChanges">;

/** The latest level compared with a baseline is at most a window of points (the change checker's). */
const LATEST_CAP = CHANGE_POINT_DEFAULTS.window;

/** The series of each metric over time, read, given a baseline; the changes found in them, read and acknowledged. */
export class SeriesBook {
  constructor(private readonly store: Store) {}

  async list(query: SeriesListQuery = {}): Promise<Page<Series>> {
    const { afterSeq, limit } = seqPageOf(query, seriesSeqOf);
    const filter = { tool: query.tool, workload: query.workload, metric: query.metric, provider: query.provider, service_type: query.service_type };
    const page = pageOf(await this.store.series.page({ ...filter, afterSeq, limit }, LATEST_CAP), query.limit, (last) => seriesCursor(last.seq));
    return { items: page.items.map(seriesView), next: page.next };
  }

  async get(id: string): Promise<Series> {
    const row = await this.store.series.get(id, LATEST_CAP);
    if (!row) throw notFound(id);
    return seriesView(row);
  }

  /** A series' points, oldest first. */
  async points(id: string, query: PageQuery = {}): Promise<Page<SeriesPoint>> {
    const { afterSeq, limit } = seqPageOf(query, seriesPointSeqOf);
    const rows = await this.store.series.points(id, afterSeq, limit);
    if (rows.length === 0 && !(await this.store.series.get(id, 1))) throw notFound(id);
    const page = pageOf(rows, query.limit, (last) => seriesPointCursor(Number(last.seq)));
    return { items: page.items.map(pointView), next: page.next };
  }

  /** Makes points `from` to `to` (`from` alone when absent) the series' baseline; both must be points of it. */
  async setBaseline(id: string, body: SeriesBaselineSet): Promise<Series> {
    const series = await this.get(id);
    const to = body.to ?? body.from;
    const bad = (field: "from" | "to", message: string): never => {
      throw new BenchwrightError("validation_failed", `${field} ${message}`, { errors: [{ path: `/body/${field}`, message }] });
    };
    if (series.points === 0) bad("from", "names no point: the series has none yet");
    if (!Number.isInteger(body.from) || body.from < 1 || body.from > series.points) bad("from", `must be a point of the series, from 1 to ${series.points}`);
    if (!Number.isInteger(to) || to < body.from || to > series.points) bad("to", `must be a point of the series, from ${body.from} to ${series.points}`);
    if (!(await this.store.series.setBaseline(id, { from: body.from, to }))) throw notFound(id);
    return this.get(id);
  }

  async clearBaseline(id: string): Promise<void> {
    if (!(await this.store.series.setBaseline(id, null))) throw notFound(id);
  }

  /** Changes found, in the order they were found (those of one series when `series_id` is given). */
  async changes(query: ChangeListQuery = {}): Promise<Page<Change>> {
    const { afterSeq, limit } = seqPageOf(query, changeSeqOf);
    const rows = await this.store.series.changes({ direction: query.direction, state: query.state, series_id: query.series_id, afterSeq, limit });
    const page = pageOf(rows, query.limit, (last) => changeCursor(last.seq));
    return { items: page.items.map(changeView), next: page.next };
  }

  /** A series' changes; a series that does not exist is not found. */
  async seriesChanges(id: string, query: PageQuery = {}): Promise<Page<Change>> {
    if (!(await this.store.series.get(id, 1))) throw notFound(id);
    return this.changes({ ...query, series_id: id });
  }

  async change(id: string): Promise<Change> {
    const [row] = await this.store.series.changes({ id });
    if (!row) throw new BenchwrightError("not_found", `No change ${id}`);
    return changeView(row);
  }

  /** Marks a change acknowledged (again is harmless). */
  async acknowledge(id: string): Promise<Change> {
    if (!(await this.store.series.acknowledge(id))) throw new BenchwrightError("not_found", `No change ${id}`);
    return this.change(id);
  }
}

function notFound(id: string): BenchwrightError {
  return new BenchwrightError("not_found", `No series ${id}`);
}
