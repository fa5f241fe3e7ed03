import type { Request, Response } from "express";
import type { BwEvent, EventFilter, EventLog, EventType } from "@benchwright/engine";

export interface EventStreamOptions {
  /** How often a comment line keeps idle proxies and clients from closing the stream. */
  keepaliveMs?: number;
  /** What clients wait before reconnecting, sent as the stream's `retry:`. */
  retryMs?: number;
}

/** One event as an SSE message: its id (what a client resumes from), its type, and the whole event as data. */
export function sseMessage(event: BwEvent): string {
  // JSON.stringify never writes a raw line break, so the data is one line.
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
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
  // Read before the answer starts, so that a database that is down answers 503, not a dead stream.
  const after = resumeFrom === undefined ? await log.lastId() : Number(resumeFrom);

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
  const keepalive = setInterval(() => res.write(": keepalive\n\n"), options.keepaliveMs ?? 15_000);
  try {
    for await (const event of log.subscribe(filter, after, gone.signal)) {
      if (!res.write(sseMessage(event))) await drained(res, gone.signal);
    }
  } catch {
    // The database went away: the stream ends, and the client resumes from its last id.
  } finally {
    clearInterval(keepalive);
    res.end();
  }
}

/** A slow reader holds the subscription back instead of piling events up in memory. */
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
