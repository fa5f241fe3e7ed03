import type { EventFilter, NewEvent } from "../../model/events.js";
import type { Sql } from "./sql.js";

/** The channel of the wake-ups; its payload is empty: the reader reads what is new itself. */
export const EVENTS_CHANNEL = "bw_events";
/**
 * The advisory lock every append takes until its transaction ends. Ids come from a sequence
 * when the row is inserted, but become visible when the transaction commits: without the
 * lock, id 8 could commit after id 9 had been read, and a reader resuming after 9 would never
 * see 8. Under it, appends commit one at a time, in id order.
 */
const EVENTS_LOCK = 4242002;

/** The lock, and the wake-up, which is delivered when the transaction commits (on PostgreSQL and on PGlite alike), in one statement. */
export function lockAndWake(): Sql {
  return { text: "SELECT pg_advisory_xact_lock($1), pg_notify($2, '')", values: [EVENTS_LOCK, EVENTS_CHANNEL] };
}

/** Every event in one statement; the rows take their ids from the sequence in the order of VALUES. */
export function insertEvents(events: readonly NewEvent[]): Sql {
  const values: unknown[] = [];
  const rows = events.map(
    (e) => `($${values.push(e.type)}, $${values.push(e.session_id)}, $${values.push(e.execution_id)}, $${values.push(JSON.stringify(e.data))})`,
  );
  return { text: `INSERT INTO events (type, session_id, execution_id, data) VALUES ${rows.join(", ")} RETURNING id`, values };
}

/** Events with an id above `afterId` that match `filter`, oldest first, at most `limit`. */
export function eventsAfter(filter: EventFilter, afterId: number, limit: number): Sql {
  const values: unknown[] = [afterId, limit];
  const where = ["id > $1"];
  if (filter.session_id) where.push(`session_id = $${values.push(filter.session_id)}`);
  if (filter.execution_id) where.push(`execution_id = $${values.push(filter.execution_id)}`);
  if (filter.types?.length) where.push(`type = ANY($${values.push(filter.types)})`);
  return {
    text: `SELECT id, at, type, session_id, execution_id, data FROM events WHERE ${where.join(" AND ")} ORDER BY id LIMIT $2`,
    values,
  };
}

export function lastEventId(): Sql {
  return { text: "SELECT COALESCE(MAX(id), 0) AS last FROM events" };
}
