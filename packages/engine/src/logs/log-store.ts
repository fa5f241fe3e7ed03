import { join } from "node:path";
import type { Readable } from "node:stream";
import type { StepKey } from "../model/steps.js";

/** Bytes `start` (included) to `end` (excluded) of a log; `end` unset means to the end. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface LogWriterOptions {
  /**
   * Called with the number of bytes stored so far (readable by every server), at most about
   * every 500 ms while bytes arrive, and once more at close. Must not throw.
   */
  onProgress?: (storedBytes: number) => void;
  /** Told each failed attempt to store bytes (they are kept and tried again). Must not throw. */
  onError?: (error: unknown) => void;
}

/**
 * One step attempt's log, appended to as the step's output arrives. Offsets are absolute
 * from the start of the attempt's log; a writer opened on a log that already holds bytes
 * goes on after them.
 */
export interface LogWriter {
  /** Total bytes of the log: those stored before `open` and every byte written since. */
  readonly bytes: number;
  /**
   * Takes a chunk of output. Synchronous and never throws: a failure to store is kept and
   * given by `drain`, `flush` and `close` (and `onError`), never to the step runner.
   */
  write(chunk: Buffer): void;
  /**
   * False while the bytes waiting to be stored reach the writer's high-water mark (or when
   * storing has failed for good): the producer should stop and `await drain()`.
   */
  readonly writable: boolean;
  /** Resolves once `writable` is true again; rejects when storing has failed for good or `signal` aborts. */
  drain(signal?: AbortSignal): Promise<void>;
  /**
   * The last `max` bytes (at most the tail capacity, 8 MiB) written at or after absolute
   * offset `from`, as UTF-8 text (a cut multi-byte character is replaced). Reads no storage.
   */
  tail(max: number, from?: number): string;
  /** Stores everything written so far; retries until it is stored, or rejects when `signal` aborts. */
  flush(signal?: AbortSignal): Promise<void>;
  /**
   * Drops every byte from absolute offset `size` on (what a part that never launched wrote,
   * before it is started again). No-op when the log is not longer than `size`.
   */
  truncate(size: number): Promise<void>;
  /** Flushes, records the log's size in `steps.log_bytes`, and releases the writer; later writes are ignored. */
  close(signal?: AbortSignal): Promise<void>;
}

/**
 * Where step logs live: files on the embedded default (one process), chunks in the
 * database on PostgreSQL (every server and worker reads them). Keys are step attempts.
 */
export interface LogStore {
  readonly kind: "file" | "db";
  /**
   * Opens the attempt's log for appending, after the bytes already stored (a resumed step
   * goes on where its log ends). `logFile` is the attempt's `steps.log_file`.
   */
  open(key: StepKey, logFile: string, options?: LogWriterOptions): Promise<LogWriter>;
  /** Bytes stored; 0 when there is no log yet. */
  size(key: StepKey, logFile?: string): Promise<number>;
  /** The stored bytes of `range` (all by default), streamed in order without holding the log in memory. */
  read(key: StepKey, range?: ByteRange, logFile?: string): Readable;
  /** Whether the attempt has a log (possibly empty). */
  exists(key: StepKey, logFile?: string): Promise<boolean>;
}

/** Where the file store keeps an attempt's log: `<dataDir>/logs/<exec>/<step>-<attempt>.log`. */
export function logFilePath(dataDir: string, key: StepKey): string {
  return join(dataDir, "logs", key.execution_id, `${key.step}-${key.attempt}.log`);
}

/** The parser's window, and so the most a writer keeps of its log's tail in memory. */
export const TAIL_CAPACITY = 8 * 1024 * 1024;

/**
 * Thrown by a step's `onData` when its writer is not `writable`, to stop the runner's
 * follow (the runner rethrows what its consumer throws): the caller awaits `drain()` and
 * follows again from `writer.bytes`, the host keeping the bytes meanwhile.
 */
export class LogBackpressure extends Error {
  constructor() {
    super("the step's log is not taking bytes as fast as they come");
    this.name = "LogBackpressure";
  }
}
