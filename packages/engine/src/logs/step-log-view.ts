import { Readable } from "node:stream";
import { BenchwrightError, isBenchwrightError } from "../errors.js";
import type { Store } from "../store/store.js";
import type { StepKey, StepKind } from "../model/steps.js";
import { sleep } from "../transport/backoff.js";
import type { ByteRange, LogStore } from "./log-store.js";

/** How often a follower looks for new bytes and for the end of the step. */
const FOLLOW_POLL_MS = 200;

interface LogFollowOptions {
  /** Absolute offset to start from; 0 by default. */
  from?: number;
  /** Stops following (the stream ends). */
  signal?: AbortSignal;
  pollMs?: number;
}

/** One step attempt's log, as a reader sees it. */
export interface StepLogView {
  readonly key: StepKey;
  /** Bytes stored when the view was opened. */
  readonly size: number;
  /** Whether the attempt was running when the view was opened. */
  readonly running: boolean;
  /** The stored bytes of `range` (`end` excluded), all of them by default. */
  read(range?: ByteRange): Readable;
  /**
   * The stored bytes from `from` on, then new bytes as they are stored, until the attempt
   * has ended and every byte of it is sent, or `signal` aborts. Reads from whichever
   * server or worker writes the log, through the store.
   */
  follow(options?: LogFollowOptions): Readable;
}

/**
 * The log of one step attempt of an execution: the last attempt of `step` (or of the step
 * that started last) unless `attempt` says which. 404 when there is none, or when an
 * attempt that has ended left no log.
 */
export async function openStepLog(store: Store, logs: LogStore, execId: string, select: { step?: StepKind; attempt?: number }): Promise<StepLogView> {
  const steps = (await store.steps.list([execId])).filter((s) => !select.step || s.step === select.step);
  const chosen = select.attempt ? steps.find((s) => s.attempt === select.attempt) : steps.at(-1);
  const notFound = () =>
    new BenchwrightError("not_found", `Execution ${execId} has no log for ${select.step ?? "any step"}${select.attempt ? ` attempt ${select.attempt}` : ""}`);
  if (!chosen) throw notFound();
  const key: StepKey = { execution_id: chosen.execution_id, step: chosen.step, attempt: chosen.attempt };
  const logFile = chosen.log_file;
  const running = chosen.state === "running";
  // A running attempt's log may not be open yet: it is empty so far.
  if (!running && !(await logs.exists(key, logFile))) throw notFound();
  const size = await logs.size(key, logFile);
  return {
    key,
    size,
    running,
    read: (range) => logs.read(key, range, logFile),
    follow: (options = {}) => Readable.from(followLog(store, logs, key, logFile, options), { objectMode: false }),
  };
}

async function* followLog(store: Store, logs: LogStore, key: StepKey, logFile: string, options: LogFollowOptions): AsyncGenerator<Buffer> {
  const { signal, pollMs = FOLLOW_POLL_MS } = options;
  let at = options.from ?? 0;
  for (;;) {
    if (signal?.aborted) return;
    try {
      // Looked at before reading: once it has ended, its writer has stored every byte, and this read gets them all.
      const ended = (await store.steps.get(key))?.state !== "running";
      for await (const chunk of logs.read(key, { start: at }, logFile)) {
        at += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
      if (ended) return;
    } catch (e) {
      // The database is out for a while: the log goes on from `at` once it is back.
      if (!isBenchwrightError(e) || e.code !== "unavailable") throw e;
    }
    try {
      await sleep(pollMs, signal);
    } catch {
      return;
    }
  }
}
