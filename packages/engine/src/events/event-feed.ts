import type { BwEvent, EventFilter } from "../model/events.js";
import type { WakeUps } from "./wake-ups.js";

/** What the feed needs of the log: its filtered reads by id, and where it ends. */
export interface EventSource {
  read(filter: EventFilter, afterId: number, limit: number): Promise<BwEvent[]>;
  lastId(): Promise<number>;
}

export interface EventFeedOptions {
  /** How often the feed looks even without a wake-up. */
  pollMs: number;
  /** Events read at once, by the feed and by a subscriber catching up. */
  batch: number;
  /** Events a subscriber may hold unsent; past them it stops being fed and reads the log itself. */
  buffer: number;
  /** The newest events kept in memory, from which a subscriber starting or catching up near the end joins without a read. */
  recent: number;
}

/**
 * One process's following of the event log, shared by all its subscribers: one wake-up
 * waiter, one read per batch of new events, each batch handed in memory to every subscriber
 * whose filter it matches. It runs while there are subscribers.
 *
 * A subscriber starting behind what the feed holds in memory (a replay, a late resume) reads
 * the log itself, with its filter, until it reaches it, then joins. One that does not take
 * its events (a slow client) holds at most `buffer` of them: the feed then stops handing it
 * any, and it goes back to reading the log itself from where it got to, at its own pace.
 * Nobody waits for it, its memory stays bounded, and its stream, never cut, misses nothing.
 */
export class EventFeed {
  readonly #subscribers = new Set<Subscriber>();
  /** The events with ids in (floor, head], in id order: everything committed there. */
  #recent: BwEvent[] = [];
  #floor = 0;
  #head = 0;
  /** Whether head and floor are known: the feed has read where the log ends. */
  #ready = false;
  #loop: Promise<void> | undefined;
  #idle: AbortController | undefined;

  constructor(
    private readonly source: EventSource,
    private readonly wakeUps: WakeUps,
    private readonly options: EventFeedOptions,
  ) {}

  /** Subscribers now, in this process. */
  get size(): number {
    return this.#subscribers.size;
  }

  /** Every event matching `filter` with an id above `afterId`, in id order, each once, until `signal` aborts. */
  async *subscribe(filter: EventFilter, afterId: number, signal: AbortSignal): AsyncGenerator<BwEvent, void, undefined> {
    const sub = new Subscriber(filter, afterId);
    this.#subscribers.add(sub);
    this.#start();
    const poke = () => sub.poke();
    signal.addEventListener("abort", poke, { once: true });
    try {
      while (!signal.aborted) {
        if (sub.error) throw sub.error;
        const event = sub.queue.shift();
        if (event) {
          yield event;
          continue;
        }
        if (!sub.live && this.#ready) {
          if (sub.seen >= this.#floor) {
            this.#join(sub);
            continue;
          }
          await this.#catchUp(sub);
          continue;
        }
        await sub.next();
      }
    } finally {
      signal.removeEventListener("abort", poke);
      this.#subscribers.delete(sub);
      if (this.#subscribers.size === 0) this.#idle?.abort();
    }
  }

  /** From here on the feed hands `sub` its events: first those of memory it has not seen. */
  #join(sub: Subscriber): void {
    sub.live = true;
    sub.offer(this.#recent, this.options.buffer);
    if (sub.live) sub.seen = Math.max(sub.seen, this.#head);
  }

  /**
   * One read of the log for `sub` alone, from where it got to. A short read saw every event
   * committed when it ran, and those up to the feed's head were committed before it began
   * (appends commit in id order): `sub` has seen at least up to there.
   */
  async #catchUp(sub: Subscriber): Promise<void> {
    const head = this.#head;
    const batch = await this.source.read(sub.filter, sub.seen, this.options.batch).catch((e: unknown) => {
      sub.error = e;
      return [];
    });
    sub.queue.push(...batch);
    sub.seen = Math.max(batch.at(-1)?.id ?? sub.seen, sub.seen);
    if (batch.length < this.options.batch) sub.seen = Math.max(sub.seen, head);
  }

  #start(): void {
    this.#loop ??= this.#run().finally(() => {
      this.#loop = undefined;
      // A subscriber that came while the loop was ending.
      if (this.#subscribers.size > 0) this.#start();
    });
  }

  async #run(): Promise<void> {
    const waiter = this.wakeUps.waiter();
    try {
      if (!this.#ready) {
        this.#head = this.#floor = await this.source.lastId();
        this.#ready = true;
        this.#pokeAll();
      }
      for (;;) {
        // Checked and forgotten in one step: a subscriber coming later finds the feed not
        // ready (it could not join what is no longer followed), and waits for the next loop.
        if (this.#subscribers.size === 0) {
          this.#forget();
          return;
        }
        const batch = await this.source.read({}, this.#head, this.options.batch);
        if (batch.length > 0) this.#spread(batch);
        if (batch.length < this.options.batch) {
          this.#idle = new AbortController();
          await waiter.wait(this.options.pollMs, this.#idle.signal);
        }
      }
    } catch (e) {
      // A failed read ends every subscription with it, as each subscriber's own read would have.
      for (const sub of this.#subscribers) {
        sub.error = e;
        sub.poke();
      }
      // They are no longer followed (one whose client is slow may see its error much later):
      // the loop starts again for new subscribers only, not at once for these.
      this.#subscribers.clear();
      this.#forget();
    } finally {
      waiter.close();
    }
  }

  #spread(batch: BwEvent[]): void {
    this.#head = batch.at(-1)!.id;
    this.#recent.push(...batch);
    const over = this.#recent.length - this.options.recent;
    if (over > 0) this.#floor = this.#recent.splice(0, over).at(-1)!.id;
    for (const sub of this.#subscribers) {
      if (sub.live) {
        sub.offer(batch, this.options.buffer);
        if (sub.live) sub.seen = Math.max(sub.seen, this.#head);
      }
      // Woken when handed something; those catching up, to look again whether they can join.
      if (!sub.live || sub.queue.length > 0) sub.poke();
    }
  }

  #pokeAll(): void {
    for (const sub of this.#subscribers) sub.poke();
  }

  #forget(): void {
    this.#ready = false;
    this.#recent = [];
  }
}

/** One subscriber's filter, where it got to, and the events handed to it and not yet taken. */
class Subscriber {
  readonly queue: BwEvent[] = [];
  /** Every event matching the filter up to this id is in the queue or was taken. */
  seen: number;
  /** Fed by the feed; otherwise it reads the log itself. */
  live = false;
  error: unknown;
  #pending = false;
  #wake: (() => void) | undefined;
  /** The filter's ids as the database writes them (a uuid column reads `3F1C…` as `3f1c…`). */
  readonly #session: string | undefined;
  readonly #execution: string | undefined;

  constructor(
    readonly filter: EventFilter,
    afterId: number,
  ) {
    this.seen = afterId;
    this.#session = filter.session_id?.toLowerCase();
    this.#execution = filter.execution_id?.toLowerCase();
  }

  /** Queues the events of `events` it has not seen and wants, until it holds `limit`: then it is no longer fed. */
  offer(events: readonly BwEvent[], limit: number): void {
    for (const event of events) {
      if (event.id <= this.seen) continue;
      if (this.#wants(event)) {
        if (this.queue.length >= limit) {
          this.live = false;
          return;
        }
        this.queue.push(event);
      }
      this.seen = event.id;
    }
  }

  #wants(event: BwEvent): boolean {
    const types = this.filter.types;
    return (
      (!this.#session || event.session_id === this.#session) &&
      (!this.#execution || event.execution_id === this.#execution) &&
      (!types?.length || types.includes(event.type))
    );
  }

  poke(): void {
    this.#pending = true;
    this.#wake?.();
  }

  /** Resolves at the next poke, at once if one came since the last call. */
  next(): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        this.#pending = false;
        resolve();
      };
    });
  }
}
