import { LogBackpressure, type LogWriter } from "./log-store.js";

/**
 * Follows a step into its log, never holding much more of it in memory than the log's
 * high-water mark. `follow(fromOffset, onData, signal)` is the runner's follow from an offset
 * of the host's log (`logStart` is where the host's log begins in this log).
 *
 * When the log stops taking bytes (a slow or absent database), the follow is stopped through
 * its signal (with a LogBackpressure reason), the bytes still arriving are let go, the log
 * drains, and the follow starts again from where the log ends: the host keeps its log, so
 * nothing is lost or written twice. A follow that ended although bytes were let go is
 * followed again too (the runner then only reads the rest and the step's end).
 * `signal` (a hand-back) stops it all.
 */
export async function followIntoLog<T>(
  log: LogWriter,
  logStart: number,
  follow: (fromOffset: number, onData: (chunk: Buffer) => void, signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    const pause = new AbortController();
    let dropped = false;
    const onData = (chunk: Buffer) => {
      // A transport may go on delivering after the abort (a local pipe drains): read again later.
      if (pause.signal.aborted) {
        dropped = true;
        return;
      }
      log.write(chunk);
      if (!log.writable) pause.abort(new LogBackpressure());
    };
    try {
      const result = await follow(Math.max(0, log.bytes - logStart), onData, signal ? AbortSignal.any([signal, pause.signal]) : pause.signal);
      if (!dropped) return result;
    } catch (e) {
      if (!pause.signal.aborted || signal?.aborted) throw e;
    }
    await log.drain(signal);
  }
}
