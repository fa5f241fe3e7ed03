import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import { pageQuery, type FollowOptions, type Page, type PageOptions } from "../lists.js";
import { seriesQuery, type SeriesFilters } from "../series-filters.js";
import type { Change, Series, SeriesBaselineSet, SeriesPoint } from "../types.js";

/** Options of `listSeries`: its filters (without them, every series). */
export type ListSeriesOptions = CallOptions & SeriesFilters;
/** Options of `listSeriesPoints`: `branch`, the points of that branch only (those whose client named one, as ingests do). */
export type SeriesPointsOptions = CallOptions & { branch?: string };

export interface SeriesMethods {
  /** The series (one metric of one benchmark on one target, over time) that match the filters, oldest first. */
  listSeries(options?: ListSeriesOptions): Promise<Series[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSeriesPage(options?: ListSeriesOptions & PageOptions): Promise<Page<Series>>;
  /**
   * The series that match the filters, page after page (`pageSize` at a time) as the loop goes.
   *
   * @example
   * for await (const s of bw.series({ tool: "sysbench" })) console.log(s.metric.name, s.latest?.mean, s.open_changes);
   */
  series(options?: ListSeriesOptions & FollowOptions): AsyncIterable<Series>;
  /** A series with its latest point, its baseline and how the latest level compares with it. */
  getSeries(seriesId: string, options?: CallOptions): Promise<Series>;
  /** Every point of the series, oldest first: each run's mean of the metric, its interval and its machines' facts (`branch`: one branch's). */
  listSeriesPoints(seriesId: string, options?: SeriesPointsOptions): Promise<SeriesPoint[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSeriesPointsPage(seriesId: string, options?: SeriesPointsOptions & PageOptions): Promise<Page<SeriesPoint>>;
  /** The series' points, page after page (`pageSize` at a time) as the loop goes. */
  seriesPoints(seriesId: string, options?: SeriesPointsOptions & FollowOptions): AsyncIterable<SeriesPoint>;
  /**
   * Pins the series' baseline to a point, or a range of points (`to` is `from` by default): the
   * series then compares its latest level with it (`latest_vs_baseline`). A point the series does not have is a 400.
   *
   * @example
   * const s = await bw.setSeriesBaseline(seriesId, { from: 1, to: 5 });
   * console.log(s.latest_vs_baseline?.size, s.latest_vs_baseline?.direction);
   */
  setSeriesBaseline(seriesId: string, body: SeriesBaselineSet, options?: CallOptions): Promise<Series>;
  /** Forgets the series' baseline (whether it had one or not). */
  clearSeriesBaseline(seriesId: string, options?: RequestOptions): Promise<void>;
  /** The changes found in the series, in the order of their points. */
  listSeriesChanges(seriesId: string, options?: CallOptions): Promise<Change[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listSeriesChangesPage(seriesId: string, options?: CallOptions & PageOptions): Promise<Page<Change>>;
}

export function seriesMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf, follow }: ClientContext): SeriesMethods {
  const seriesPage = (o?: ListSeriesOptions & PageOptions) =>
    readPage<Series>(raw.GET("/series/", { params: { header: fieldsHeader(o), query: seriesQuery(o) }, ...listInit(o) }));
  const seriesPointsPage = (seriesId: string, o?: SeriesPointsOptions & PageOptions) =>
    readPage<SeriesPoint>(
      raw.GET("/series/{series_id}/points", {
        params: { path: { series_id: seriesId }, header: fieldsHeader(o), query: { ...pageQuery(o), branch: o?.branch } },
        ...listInit(o),
      }),
    );
  const seriesChangesPage = (seriesId: string, o?: CallOptions & PageOptions) =>
    readPage<Change>(
      raw.GET("/series/{series_id}/changes", {
        params: { path: { series_id: seriesId }, header: fieldsHeader(o), query: pageQuery(o) },
        ...listInit(o),
      }),
    );
  return {
    listSeries: (o) => itemsOf(seriesPage(o)),
    listSeriesPage: seriesPage,
    series: (o) => follow(o, seriesPage),
    getSeries: (seriesId, o) => unwrap(raw.GET("/series/{series_id}", { params: { path: { series_id: seriesId }, header: fieldsHeader(o) }, ...init(o) })),
    listSeriesPoints: (seriesId, o) => itemsOf(seriesPointsPage(seriesId, o)),
    listSeriesPointsPage: seriesPointsPage,
    seriesPoints: (seriesId, o) => follow(o, (page) => seriesPointsPage(seriesId, page)),
    setSeriesBaseline: (seriesId, body, o) =>
      unwrap(raw.PUT("/series/{series_id}/baseline", { body, params: { path: { series_id: seriesId }, header: fieldsHeader(o) }, ...init(o) })),
    clearSeriesBaseline: async (seriesId, o) => {
      await unwrap(raw.DELETE("/series/{series_id}/baseline", { params: { path: { series_id: seriesId } }, ...init(o) }));
    },
    listSeriesChanges: (seriesId, o) => itemsOf(seriesChangesPage(seriesId, o)),
    listSeriesChangesPage: seriesChangesPage,
  };
}
