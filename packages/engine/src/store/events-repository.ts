import type { BwEvent, EventFilter, EventType, NewEvent } from "../model/events.js";
import { formatTimestamp } from "../time.js";
import type { Db } from "./db.js";
import { eventsAfter, insertEvents, lastEventId, lockAndWake } from "./sql/events-sql.js";
import { run } from "./sql/sql.js";

interface EventRow {
  id: string | number;
  at: Date | string;
  type: EventType;
  session_id: string;
  execution_id: string | null;
  data: unknown;
}

/** The events table: appends in the transaction of the change they tell of, and reads by id. Following it as it grows is the EventLog's. */
export class EventsRepository {
  constructor(readonly db: Db) {}

  /**
   * Appends an event, in `tx` when given (so that it commits with the change it tells of, or
   * not at all), otherwise in a transaction of its own. Append last in a transaction: the lock
   * it takes is held until the commit.
   */
  async append(event: NewEvent, tx?: Db): Promise<number> {
    return (await this.appendAll([event], tx))[0];
  }

  async appendAll(events: readonly NewEvent[], tx?: Db): Promise<number[]> {
    if (!tx) return this.db.transaction((t) => this.appendAll(events, t));
    await run(tx, lockAndWake());
    if (events.length === 0) return [];
    const inserted = await run<{ id: string | number }>(tx, insertEvents(events));
    // The ids are in the events' order.
    return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  /** Events with an id above `afterId` that match `filter`, oldest first, at most `limit`. */
  async read(filter: EventFilter, afterId: number, limit: number): Promise<BwEvent[]> {
    return (await run<EventRow>(this.db, eventsAfter(filter, afterId, limit))).map(eventOf);
  }

  /** The id of the last event committed: following from it gives only what happens next. */
  async lastId(): Promise<number> {
    const [row] = await run<{ last: string | number }>(this.db, lastEventId());
    return Number(row.last);
  }
}

function eventOf(row: EventRow): BwEvent {
  return {
    id: Number(row.id),
    at: formatTimestamp(new Date(row.at)),
    type: row.type,
    session_id: row.session_id,
    execution_id: row.execution_id,
    data: typeof row.data === "string" ? JSON.parse(row.data) : row.data,
  } as BwEvent;
}
