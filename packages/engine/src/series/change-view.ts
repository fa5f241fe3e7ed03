import type { FactChange } from "../model/series.js";
import type { ChangeWithSeries } from "../store/series-repository.js";
import { formatTimestamp } from "../time.js";

/** A change as the contract's Change shows it. */
export interface ChangeView {
  id: string;
  series_id: string;
  series: ChangeWithSeries["series"];
  seq: number;
  at: string;
  execution_id: string;
  direction: "regression" | "improvement";
  size: number;
  size_ci_low: number | null;
  size_ci_high: number | null;
  p_value: number;
  before: { mean: number; n: number };
  after: { mean: number; n: number };
  facts_changed: FactChange[];
  state: "open" | "acknowledged";
  detected_at: string;
}

export function changeView(row: ChangeWithSeries): ChangeView {
  return {
    id: row.id,
    series_id: row.series_id,
    series: row.series,
    seq: Number(row.point_seq),
    at: formatTimestamp(new Date(row.at)),
    execution_id: row.execution_id,
    direction: row.direction,
    size: row.size,
    size_ci_low: row.size_ci_low,
    size_ci_high: row.size_ci_high,
    p_value: row.p_value,
    before: row.before,
    after: row.after,
    facts_changed: row.facts_changed,
    state: row.state,
    detected_at: formatTimestamp(new Date(row.detected)),
  };
}
