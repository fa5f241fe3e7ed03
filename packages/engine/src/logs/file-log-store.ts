import { closeSync, createReadStream, existsSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import type { Db } from "../store/db.js";
import type { StepKey } from "../model/steps.js";
import { recordLogBytes } from "./log-bytes.js";
import { logSize, readLogTail } from "./log-file.js";
import { logFilePath, TAIL_CAPACITY, type ByteRange, type LogStore, type LogWriter, type LogWriterOptions } from "./log-store.js";
import { ProgressReporter } from "./progress.js";

/**
 * Step logs as files under the data dir: the embedded default, where one process serves
 * and runs every step. The operating system buffers the writes, so a write costs no more
 * than a copy, and the tail is read back from the file, not kept in memory.
 */
export class FileLogStore implements LogStore {
  readonly kind = "file" as const;

  constructor(
    private readonly dataDir: string,
    /** When given, `close` records each log's size in `steps.log_bytes`. */
    private readonly db?: Db,
  ) {}

  async open(key: StepKey, logFile: string, options: LogWriterOptions = {}): Promise<LogWriter> {
    mkdirSync(dirname(logFile), { recursive: true });
    const fd = openSync(logFile, "a+");
    return new FileLogWriter(logFile, fd, options, (bytes) => (this.db ? recordLogBytes(this.db, key, bytes) : Promise.resolve()));
  }

  async size(key: StepKey, logFile?: string): Promise<number> {
    const path = this.#path(key, logFile);
    return existsSync(path) ? statSync(path).size : 0;
  }

  read(key: StepKey, range: ByteRange = { start: 0 }, logFile?: string): Readable {
    const path = this.#path(key, logFile);
    if (!existsSync(path) || (range.end !== undefined && range.end <= range.start)) return Readable.from([]);
    return createReadStream(path, { start: range.start, end: range.end === undefined ? undefined : range.end - 1 });
  }

  async exists(key: StepKey, logFile?: string): Promise<boolean> {
    return existsSync(this.#path(key, logFile));
  }

  #path(key: StepKey, logFile: string | undefined): string {
    return logFile ?? logFilePath(this.dataDir, key);
  }
}

class FileLogWriter implements LogWriter {
  #fd: number | undefined;
  #bytes: number;
  #error: unknown;
  readonly #progress: ProgressReporter;

  constructor(
    private readonly path: string,
    fd: number,
    private readonly options: LogWriterOptions,
    private readonly onClose: (bytes: number) => Promise<void>,
  ) {
    this.#fd = fd;
    this.#bytes = logSize(fd);
    this.#progress = new ProgressReporter(() => this.#bytes, options.onProgress);
  }

  get bytes(): number {
    return this.#bytes;
  }

  get writable(): boolean {
    return this.#fd !== undefined && this.#error === undefined;
  }

  write(chunk: Buffer): void {
    if (this.#fd === undefined || this.#error !== undefined) return;
    try {
      for (let done = 0; done < chunk.length; ) done += writeSync(this.#fd, chunk, done);
      this.#bytes += chunk.length;
    } catch (e) {
      // The log cannot be written (disk full...): said by drain, flush and close.
      this.#error = e;
      this.#bytes = logSize(this.#fd);
      try {
        this.options.onError?.(e);
      } catch {
        // A hook's failure is not the log's.
      }
      return;
    }
    this.#progress.changed();
  }

  async drain(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.#error !== undefined) throw this.#error;
  }

  tail(max: number, from = 0): string {
    const window = Math.min(max, TAIL_CAPACITY);
    if (this.#fd !== undefined) return readLogTail(this.#fd, from, window);
    if (!existsSync(this.path)) return "";
    const fd = openSync(this.path, "r");
    try {
      return readLogTail(fd, from, window);
    } finally {
      closeSync(fd);
    }
  }

  async flush(signal?: AbortSignal): Promise<void> {
    return this.drain(signal);
  }

  async truncate(size: number): Promise<void> {
    if (this.#fd === undefined || size >= this.#bytes) return;
    // Through the fd: the file is open for appending, so later writes land at the new end.
    ftruncateSync(this.#fd, size);
    this.#bytes = size;
  }

  async close(): Promise<void> {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
    this.#progress.finish();
    await this.onClose(this.#bytes);
    if (this.#error !== undefined) throw this.#error;
  }
}
