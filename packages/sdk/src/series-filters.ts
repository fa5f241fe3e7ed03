import { pageQuery, type PageOptions } from "./lists.js";
import type { ChangeDirection, ChangeState } from "./types.js";

/** The filters of `listSeries`, `listSeriesPage` and `series` (every one given must hold). */
export interface SeriesFilters {
  /** Only the series of this tool (its id). */
  tool?: string;
  /** Only the series of this workload (its id). */
  workload?: string;
  /** Only the series of this metric (its name). */
  metric?: string;
  /** Only the series on this provider configuration (its name). */
  provider?: string;
  /** Only the series on this service type. */
  serviceType?: string;
}

/** The filters of `listChanges`, `listChangesPage` and `changes`. */
export interface ChangeFilters {
  /** Only the regressions, or only the improvements. */
  direction?: ChangeDirection;
  /** Only the open changes, or only the acknowledged ones. */
  state?: ChangeState;
  /** Only the changes of this series. */
  seriesId?: string;
}

/** The series filters and page as the contract's query parameters. */
export function seriesQuery(options: SeriesFilters & PageOptions = {}) {
  const { tool, workload, metric, provider, serviceType } = options;
  return { tool, workload, metric, provider, service_type: serviceType, ...pageQuery(options) };
}

/** The change filters and page as the contract's query parameters. */
export function changeQuery(options: ChangeFilters & PageOptions = {}) {
  return { direction: options.direction, state: options.state, series_id: options.seriesId, ...pageQuery(options) };
}
