import type { Change, Series, SeriesBaselineSet, SeriesPoint, operations } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { changeCursor, changeSeqOf, seriesCursor, seriesPointCursor, seriesPointSeqOf, seriesSeqOf } from "../lists/cursor.js";
import { type Page, pageOf, seqPageOf, type Visibility } from "../lists/list-query.js";
import { CHANGE_POINT_DEFAULTS } from "../results/change-points.js";
import type { Store } from "../store/store.js";
import { changeView } from "./change-view.js";
import { pointView, seriesView } from "./series-view.js";

type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;
type PageQuery = QueryOf<"listSeriesPoints">;
/** The filters and page of `GET /series/`; `visible_to`, the series a non-admin may read (see SeriesBook). */
export type SeriesListQuery = QueryOf<"listSeries"> & Visibility;
/** The filters and page of `GET /changes/`; `visible_to`, the changes a non-admin may read. */
export type ChangeListQuery = QueryOf<"listChanges"> & Visibility;

/** The latest level compared with a baseline is at most a window of points (the change checker's). */
const LATEST_CAP = CHANGE_POINT_DEFAULTS.window;

/**
 * The series of each metric over time, read, given a baseline; the changes found in them, read
 * and acknowledged. Every run's figures become points, whoever ran it: with `visible_to` (a
 * principal who is not an admin) a point is read when its execution is (its own, or of a shared
 * session), a change when the execution of its first point is, and a series when it holds such a
 * point, told from those points alone (see seriesPage). A series or change that exists but is
 * not readable is a 403 `forbidden`, as another principal's session is.
 */
export class SeriesBook {
  constructor(private readonly store: Store) {}

  async list(query: SeriesListQuery = {}): Promise<Page<Series>> {
    const { afterSeq, limit } = seqPageOf(query, seriesSeqOf);
    const filter = { tool: query.tool, workload: query.workload, metric: query.metric, provider: query.provider, service_type: query.service_type };
    const rows = await this.store.series.page({ ...filter, visibleTo: query.visible_to, afterSeq, limit }, LATEST_CAP);
    const page = pageOf(rows, query.limit, (last) => seriesCursor(last.seq));
    return { items: page.items.map(seriesView), next: page.next };
  }

  async get(id: string, visibility: Visibility = {}): Promise<Series> {
    const row = await this.store.series.get(id, LATEST_CAP, visibility.visible_to);
    if (!row) throw await this.#unreadable(id, visibility);
    return seriesView(row);
  }

  /** A series' points, oldest first. */
  async points(id: string, query: PageQuery = {}, visibility: Visibility = {}): Promise<Page<SeriesPoint>> {
    const { afterSeq, limit } = seqPageOf(query, seriesPointSeqOf);
    const rows = await this.store.series.points(id, afterSeq, limit, visibility.visible_to, query.branch);
    // No point (past the last page, or none to read): is there a series to read at all?
    if (rows.length === 0) await this.#readable(id, visibility);
    const page = pageOf(rows, query.limit, (last) => seriesPointCursor(Number(last.seq)));
    return { items: page.items.map(pointView), next: page.next };
  }

  /**
   * Makes points `from` to `to` (`from` alone when absent) the series' baseline; both must be
   * points of it. Its `margin` (`min_difference` when absent) is kept with it for its claims.
   */
  async setBaseline(id: string, body: SeriesBaselineSet): Promise<Series> {
    const series = await this.get(id);
    const to = body.to ?? body.from;
    const bad = (field: "from" | "to", message: string): never => {
      throw new BenchwrightError("validation_failed", `${field} ${message}`, { errors: [{ path: `/body/${field}`, message }] });
    };
    if (series.points === 0) bad("from", "names no point: the series has none yet");
    if (!Number.isInteger(body.from) || body.from < 1 || body.from > series.points) bad("from", `must be a point of the series, from 1 to ${series.points}`);
    if (!Number.isInteger(to) || to < body.from || to > series.points) bad("to", `must be a point of the series, from ${body.from} to ${series.points}`);
    const margin = body.margin ?? body.min_difference;
    if (!(await this.store.series.setBaseline(id, { from: body.from, to, ...(margin === undefined ? {} : { margin }) }))) throw notFound(id);
    return this.get(id);
  }

  async clearBaseline(id: string): Promise<void> {
    if (!(await this.store.series.setBaseline(id, null))) throw notFound(id);
  }

  /** Changes found, in the order they were found (those of one series when `series_id` is given). */
  async changes(query: ChangeListQuery = {}): Promise<Page<Change>> {
    const { afterSeq, limit } = seqPageOf(query, changeSeqOf);
    const filter = { direction: query.direction, state: query.state, series_id: query.series_id, visibleTo: query.visible_to };
    const rows = await this.store.series.changes({ ...filter, afterSeq, limit });
    const page = pageOf(rows, query.limit, (last) => changeCursor(last.seq));
    return { items: page.items.map(changeView), next: page.next };
  }

  /** A series' changes; a series that does not exist is not found, one this principal may not read forbidden. */
  async seriesChanges(id: string, query: PageQuery = {}, visibility: Visibility = {}): Promise<Page<Change>> {
    await this.#readable(id, visibility);
    return this.changes({ ...query, series_id: id, ...visibility });
  }

  async change(id: string, visibility: Visibility = {}): Promise<Change> {
    const [row] = await this.store.series.changes({ id, visibleTo: visibility.visible_to });
    if (row) return changeView(row);
    if (visibility.visible_to !== undefined && (await this.store.series.changes({ id })).length > 0)
      throw new BenchwrightError("forbidden", `The change ${id} was found at another principal's execution`);
    throw new BenchwrightError("not_found", `No change ${id}`);
  }

  /** Marks a change acknowledged (again is harmless). */
  async acknowledge(id: string): Promise<Change> {
    if (!(await this.store.series.acknowledge(id))) throw new BenchwrightError("not_found", `No change ${id}`);
    return this.change(id);
  }

  /** Throws unless the series exists and (with `visible_to`) holds a point this principal may read. */
  async #readable(id: string, visibility: Visibility): Promise<void> {
    const { visible_to } = visibility;
    if (visible_to === undefined ? await this.store.series.exists(id) : await this.store.series.visible(id, visible_to)) return;
    throw await this.#unreadable(id, visibility);
  }

  /** Why a series was not read: there is none (404), or every point of it is another principal's (403). */
  async #unreadable(id: string, visibility: Visibility): Promise<BenchwrightError> {
    if (visibility.visible_to !== undefined && (await this.store.series.exists(id)))
      return new BenchwrightError("forbidden", `The series ${id} holds only other principals' results`);
    return notFound(id);
  }
}

function notFound(id: string): BenchwrightError {
  return new BenchwrightError("not_found", `No series ${id}`);
}
