import type { Client } from "openapi-fetch";
import { BenchwrightProblemError } from "./errors.js";
import type { paths } from "./generated/schema.js";
import { sseMessages, type SseMessage } from "./sse.js";
import type { BenchwrightEvent, EventType } from "./types.js";

/** Options of `events()`. */
export interface EventsOptions {
  /** Only the events of this session (its executions and steps included). */
  sessionId?: string;
  /** Only the events of this execution (its steps included). */
  executionId?: string;
  /** Only events of these types. */
  types?: EventType[];
  /**
   * Start after this event id, say the last one a previous iteration saw; 0 replays the whole
   * log. Unset: only the events that happen from now on.
   */
  lastEventId?: number;
  /** Ends the iteration (it returns; it does not throw). */
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** What to wait before reconnecting, until the server says otherwise (`retry:`); default 2000 ms. */
  retryMs?: number;
}

/** Statuses that say "later", not "never": the stream is asked for again. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

/**
 * The server's events as they happen, over Server-Sent Events. A dropped connection (or a
 * server that is restarting) is reconnected with `Last-Event-ID`, so the loop sees every event
 * once, in order. Any other HTTP error throws {@link BenchwrightProblemError}. Leaving the loop
 * early, or aborting `signal`, closes the connection.
 */
export async function* followEvents(raw: Client<paths>, options: EventsOptions = {}): AsyncGenerator<BenchwrightEvent, void, undefined> {
  const { signal, headers } = options;
  let last = options.lastEventId;
  let retryMs = options.retryMs ?? 2_000;
  while (!signal?.aborted) {
    // One connection's abort, so that leaving the loop closes it too.
    const connection = new AbortController();
    const stop = () => connection.abort();
    signal?.addEventListener("abort", stop, { once: true });
    let messages: AsyncGenerator<SseMessage, void, undefined> | undefined;
    try {
      const answer = await raw
        .GET("/events", {
          params: {
            query: { session_id: options.sessionId, execution_id: options.executionId, types: options.types },
            header: last === undefined ? {} : { "Last-Event-ID": String(last) },
          },
          querySerializer: { array: { style: "form", explode: false } },
          parseAs: "stream",
          // A refusal comes as a problem, whatever the stream's type.
          headers: { Accept: "text/event-stream, application/problem+json", ...headers },
          signal: connection.signal,
        })
        .catch(() => undefined); // the network: try again
      if (answer && !answer.response.ok && !RETRYABLE.has(answer.response.status)) {
        throw BenchwrightProblemError.from(answer.error, answer.response);
      }
      if (answer?.data) messages = sseMessages(answer.data as ReadableStream<Uint8Array>);
      while (messages) {
        let next: IteratorResult<SseMessage, void>;
        try {
          next = await messages.next();
        } catch {
          break; // dropped: resume from `last`
        }
        if (next.done) break;
        const message = next.value;
        if (message.retry !== undefined) retryMs = message.retry;
        const id = message.id !== undefined && /^\d+$/.test(message.id) ? Number(message.id) : undefined;
        if (message.data === undefined) {
          // Where the stream starts: a drop before the first event resumes from there.
          if (id !== undefined && (last === undefined || id > last)) last = id;
          continue;
        }
        if (id !== undefined) {
          if (last !== undefined && id <= last) continue; // already seen
          last = id;
        }
        const event = JSON.parse(message.data) as BenchwrightEvent;
        // The server filters by type already; a proxy or a mock that ignores the filter must
        // not wake a caller that asked for other types.
        if (options.types?.length && !options.types.includes(event.type)) continue;
        yield event;
      }
    } finally {
      signal?.removeEventListener("abort", stop);
      connection.abort();
      await messages?.return();
    }
    await pause(retryMs, signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
