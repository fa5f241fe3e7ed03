import type { Request, Response } from "express";
import { BenchwrightError, type BwEvent, type Engine, type EventFilter, type EventType } from "@benchwright/engine";

/** Where a stream reads the event log: the engine. */
type EventLog = Pick<Engine, "lastEventId" | "subscribeEvents">;

export interface EventStreamOptions {
  /** How often a comment line keeps idle proxies and clients from closing the stream. */
  keepaliveMs?: number;
  /** What clients wait before reconnecting, sent as the stream's `retry:`. */
  retryMs?: number;
  /** The streams this one counts among: past its maximum, the request is refused. */
  cap?: SubscriberCap;
  /** Whether the subscriber may see a session's events (unset: every event, as an admin). */
  canSeeSession?: (sessionId: string) => Promise<boolean>;
  /** Whether it may see the events of an execution told without its session (a change found at its point); unset: all. */
  canSeeExecution?: (executionId: string) => Promise<boolean>;
  /** Ends the stream (its token was revoked or expired). */
  ended?: AbortSignal;
}

/** What a refused subscriber is told to wait, in seconds: places free up as other clients go, at no known time. */
const REFUSED_RETRY_AFTER = 5;

/** Event streams a process holds open at once by default: bench/event-subscribers.mjs measures what they cost. */
export const DEFAULT_MAX_EVENT_SUBSCRIBERS = 1000;

/**
 * How many event streams a server holds open at once. Each costs a connection, its buffers
 * and a subscription's share of the event fan-out: past `max`, a subscriber is refused
 * before anything is read for it.
 */
export class SubscriberCap {
  #open = 0;

  constructor(readonly max: number) {}

  get open(): number {
    return this.#open;
  }

  /** Takes a place, or throws `too_many_subscribers`; the function returned gives it back (once). */
  take(): () => void {
    if (this.#open >= this.max) {
      throw new BenchwrightError(
        "too_many_subscribers",
        `This server streams events to ${this.max} subscribers already, as many as it takes; try again later`,
        { retry_after: REFUSED_RETRY_AFTER },
      );
    }
    this.#open++;
    let given = false;
    return () => {
      if (!given) this.#open--;
      given = true;
    };
  }
}

/**
 * The SSE messages of the events every stream of the process shares (the event log hands
 * the same objects to each subscriber): each is written once, whatever the number of streams.
 */
const messages = new WeakMap<BwEvent, string>();

/** One event as an SSE message: its id (what a client resumes from), its type, and the whole event as data. */
function sseMessage(event: BwEvent): string {
  let message = messages.get(event);
  if (message === undefined) {
    // JSON.stringify never writes a raw line break, so the data is one line.
    message = `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    messages.set(event, message);
  }
  return message;
}

/**
 * GET /events: the event log as Server-Sent Events, from after `Last-Event-ID` (or
 * `last_event_id`), or from now. The request's parameters were checked against the contract.
 */
export async function streamEvents(log: EventLog, req: Request, res: Response, options: EventStreamOptions = {}): Promise<void> {
  const query = req.query as { session_id?: string; execution_id?: string; types?: EventType[] | string; last_event_id?: string | number };
  const filter: EventFilter = {
    session_id: query.session_id,
    execution_id: query.execution_id,
    types: typeof query.types === "string" ? (query.types.split(",") as EventType[]) : query.types,
  };
  const resumeFrom = req.get("last-event-id") ?? query.last_event_id;
  const release = options.cap?.take() ?? (() => {});
  try {
    // Read before the answer starts, so that a database that is down answers 503, not a dead stream.
    const after = resumeFrom === undefined ? await log.lastEventId() : Number(resumeFrom);
    await follow(log, filter, after, res, options);
  } finally {
    release();
  }
}

/** Answers with the stream of `filter`'s events from after `after`, until the client goes away or the database does. */
async function follow(log: EventLog, filter: EventFilter, after: number, res: Response, options: EventStreamOptions): Promise<void> {
  res.status(200).set({
    "Content-Type": "text/event-stream; charset=utf-8",
    // Neither cached nor held back by a proxy (nginx reads X-Accel-Buffering), nor compressed.
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
    Connection: "keep-alive",
  });
  res.flushHeaders();
  // The id names where this stream starts: a client dropped before its first event resumes from there.
  res.write(`retry: ${options.retryMs ?? 2_000}\nid: ${after}\n\n`);

  const gone = new AbortController();
  res.on("close", () => gone.abort());
  if (options.ended?.aborted) gone.abort();
  options.ended?.addEventListener("abort", () => gone.abort(), { once: true });
  const keepalive = setInterval(() => res.write(": keepalive\n\n"), options.keepaliveMs ?? 15_000);
  try {
    for await (const event of log.subscribeEvents(filter, after, gone.signal)) {
      // Events of no session and no execution (plans' runs) are every reader's, as their lists are; a
      // change is told with the execution of its point, and read as that execution is.
      if (event.session_id && options.canSeeSession && !(await options.canSeeSession(event.session_id))) continue;
      if (!event.session_id && event.execution_id && options.canSeeExecution && !(await options.canSeeExecution(event.execution_id))) continue;
      if (!res.write(sseMessage(event))) await drained(res, gone.signal);
    }
  } catch {
    // The database went away: the stream ends, and the client resumes from its last id.
  } finally {
    clearInterval(keepalive);
    res.end();
  }
}

/**
 * A slow reader holds back its own subscription instead of piling events up in memory (the
 * log then stops handing it events, and it reads them itself when it gets there).
 */
function drained(res: Response, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    res.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
