import type { BwEvent, EventFilter } from "../model/events.js";
import type { Db } from "../store/db.js";
import { EventsRepository } from "../store/events-repository.js";
import { EVENTS_CHANNEL } from "../store/sql/events-sql.js";
import { EventFeed } from "./event-feed.js";
import { WakeUps } from "./wake-ups.js";

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

/**
 * The engine's event log: every state change appends an event in the transaction that makes
 * it (see EventsRepository), and readers follow the log by id, from any point, each event once
 * and in order.
 */
export class EventLog extends EventsRepository {
  readonly #feed: EventFeed;

  constructor(db: Db, options: EventLogOptions = {}) {
    super(db);
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
   * Every event matching `filter` with an id above `afterId`, in id order, each once, as they
   * are committed, until `signal` aborts. A failed read ends it with that error. The
   * subscriptions of a process share one following of the log (see EventFeed): N of them
   * cost one read per batch of new events, not N.
   */
  subscribe(filter: EventFilter, afterId: number, signal: AbortSignal): AsyncGenerator<BwEvent, void, undefined> {
    return this.#feed.subscribe(filter, afterId, signal);
  }
}
