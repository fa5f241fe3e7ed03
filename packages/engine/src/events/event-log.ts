import type { components } from "@benchwright/contract";
import type { Db } from "../store/db.js";
import { formatTimestamp } from "../time.js";
import { EventFeed } from "./event-feed.js";
import { WakeUps } from "./wake-ups.js";

/** One entry of the log, as the contract describes it (and `/events` sends it). */
export type BwEvent = components["schemas"]["Event"];
export type EventType = BwEvent["type"];

type WithoutLogFields<E> = E extends unknown ? Omit<E, "id" | "at"> : never;
/** An event to append: the log gives it its id and time. */
export type NewEvent = WithoutLogFields<BwEvent>;

export interface EventFilter {
  session_id?: string;
  execution_id?: string;
  /** Only these types; every type when unset or empty. */
  types?: readonly EventType[];
}

export interface EventLogOptions {
  /** How often the subscribers' shared reads look even without a wake-up (a notification lost with a dropped connection). */
  pollMs?: number;
  /** Events read at once. */
  batch?: number;
  /** Events a subscriber may hold that it has not taken; past them it reads the log itself, at its own pace. */
  buffer?: number;
  /** The newest events kept in memory, which a subscriber starting (or resuming) near the end joins without a read of its own. */
  recent?: number;
}

/** The channel of the wake-ups; its payload is empty: the reader reads what is new itself. */
const EVENTS_CHANNEL = "bw_events";
/**
 * The advisory lock every append takes until its transaction ends. Ids come from a sequence
 * when the row is inserted, but become visible when the transaction commits: without the
 * lock, id 8 could commit after id 9 had been read, and a reader resuming after 9 would never
 * see 8. Under it, appends commit one at a time, in id order.
 */
const EVENTS_LOCK = 4242002;

interface EventRow {
  id: string | number;
  at: Date | string;
  type: EventType;
  session_id: string;
  execution_id: string | null;
  data: unknown;
}

/**
 * The engine's event log: every state change appends an event in the transaction that makes
 * it, and readers follow the log by id, from any point, each event once and in order.
 */
export class EventLog {
  readonly #feed: EventFeed;

  constructor(
    readonly db: Db,
    options: EventLogOptions = {},
  ) {
    const batch = options.batch ?? 500;
    this.#feed = new EventFeed(this, new WakeUps(db, EVENTS_CHANNEL), {
      pollMs: options.pollMs ?? 2_000,
      batch,
      buffer: options.buffer ?? 1_000,
      recent: options.recent ?? 2 * batch,
    });
  }

  /** The subscriptions open in this process. */
  get subscribers(): number {
    return this.#feed.size;
  }

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
    // The lock, and the wake-up, which is delivered when the transaction commits (on PostgreSQL
    // and on PGlite alike), in one statement; then every event in one more.
    await tx.query("SELECT pg_advisory_xact_lock($1), pg_notify($2, '')", [EVENTS_LOCK, EVENTS_CHANNEL]);
    if (events.length === 0) return [];
    const params: unknown[] = [];
    const rows = events.map(
      (e) => `($${params.push(e.type)}, $${params.push(e.session_id)}, $${params.push(e.execution_id)}, $${params.push(JSON.stringify(e.data))})`,
    );
    const inserted = await tx.query<{ id: string | number }>(
      `INSERT INTO events (type, session_id, execution_id, data) VALUES ${rows.join(", ")} RETURNING id`,
      params,
    );
    // The rows take their ids from the sequence in the order of VALUES, which is the events' order.
    return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  /** Events with an id above `afterId` that match `filter`, oldest first, at most `limit`. */
  async read(filter: EventFilter, afterId: number, limit: number): Promise<BwEvent[]> {
    const params: unknown[] = [afterId, limit];
    const where = ["id > $1"];
    if (filter.session_id) where.push(`session_id = $${params.push(filter.session_id)}`);
    if (filter.execution_id) where.push(`execution_id = $${params.push(filter.execution_id)}`);
    if (filter.types?.length) where.push(`type = ANY($${params.push(filter.types)})`);
    const rows = await this.db.query<EventRow>(
      `SELECT id, at, type, session_id, execution_id, data FROM events WHERE ${where.join(" AND ")} ORDER BY id LIMIT $2`,
      params,
    );
    return rows.map(eventOf);
  }

  /** The id of the last event committed: following from it gives only what happens next. */
  async lastId(): Promise<number> {
    const [row] = await this.db.query<{ last: string | number }>("SELECT COALESCE(MAX(id), 0) AS last FROM events");
    return Number(row.last);
  }

  /**
   * Every event matching `filter` with an id above `afterId`, in id order, each once, as they
   * are committed, until `signal` aborts. A failed read ends it with that error. The
   * subscriptions of a process share one following of the log (see EventFeed): N of them
   * cost one read per batch of new events, not N.
   */
  subscribe(filter: EventFilter, afterId: number, signal: AbortSignal): AsyncGenerator<BwEvent, void, undefined> {
    return this.#feed.subscribe(filter, afterId, signal);
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
