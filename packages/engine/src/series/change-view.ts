import type { Change } from "@benchwright/contract";
import type { ChangeWithSeries } from "../store/series-repository.js";
import { formatTimestamp } from "../time.js";
import { seriesIdentity } from "./series-identity.js";

/** A change as the contract's Change shows it. */
export type ChangeView = Change;

export function changeView(row: ChangeWithSeries): Change {
  return {
    id: row.id,
    series_id: row.series_id,
    series: seriesIdentity(row.series),
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
    revision: row.revision,
  };
}
