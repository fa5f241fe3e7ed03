import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, writev } from "node:fs";
import { readLogTail, logSize } from "./log-file.js";
import { TAIL_CAPACITY, type LogWriter, type LogWriterOptions } from "./log-store.js";
import { ProgressReporter } from "./progress.js";

/**
 * Bytes taken and not yet in the file past which the writer says it is not `writable`: the
 * disk is slower than the transport then, and the step's follow waits (the host keeps them).
 */
const HIGH_WATER_MARK = 16 * 1024 * 1024;

/** The most buffers one `writev` takes (Linux's IOV_MAX). */
const IOV_MAX = 1024;

/**
 * One step attempt's log file, appended to with `writev` on libuv's thread pool: the copy
 * into the page cache, a good part of what a GiB of output costs the server, runs beside the
 * thread that decrypts the next packets instead of after it. Chunks that come while a write
 * is under way go together in the next one. `bytes` counts what was taken; progress, and so
 * every reader of the file, what the file holds.
 */
export class FileLogWriter implements LogWriter {
  #fd: number | undefined;
  /** Bytes in the file. */
  #stored: number;
  /** Bytes taken: those in the file, then `#writing`'s, then `#queue`'s. */
  #bytes: number;
  #queue: Buffer[] = [];
  /** The chunks of the write under way (none when there is none). */
  #writing: Buffer[] = [];
  #busy = false;
  #error: unknown;
  readonly #waiters = new Set<() => void>();
  readonly #progress: ProgressReporter;

  constructor(
    private readonly path: string,
    fd: number,
    private readonly options: LogWriterOptions,
    private readonly onClose: (bytes: number) => Promise<void>,
  ) {
    this.#fd = fd;
    this.#stored = this.#bytes = logSize(fd);
    this.#progress = new ProgressReporter(() => this.#stored, options.onProgress);
  }

  get bytes(): number {
    return this.#bytes;
  }

  get writable(): boolean {
    return this.#fd !== undefined && this.#error === undefined && this.#bytes - this.#stored < HIGH_WATER_MARK;
  }

  write(chunk: Buffer): void {
    if (this.#fd === undefined || this.#error !== undefined || chunk.length === 0) return;
    this.#queue.push(chunk);
    this.#bytes += chunk.length;
    this.#pump();
  }

  async drain(signal?: AbortSignal): Promise<void> {
    await this.#until(() => this.#error !== undefined || this.#bytes - this.#stored < HIGH_WATER_MARK, signal);
    if (this.#error !== undefined) throw this.#error;
  }

  tail(max: number, from = 0): string {
    const window = Math.min(max, TAIL_CAPACITY);
    if (this.#fd === undefined) {
      if (!existsSync(this.path)) return "";
      const fd = openSync(this.path, "r");
      try {
        return readLogTail(fd, from, window);
      } finally {
        closeSync(fd);
      }
    }
    // What is in the file, then what is on its way there.
    const start = Math.max(from, this.#bytes - window);
    if (start >= this.#bytes) return "";
    const parts: Buffer[] = [];
    if (start < this.#stored) {
      const stored = Buffer.alloc(this.#stored - start);
      readSync(this.#fd, stored, 0, stored.length, start);
      parts.push(stored);
    }
    let at = this.#stored;
    for (const chunk of [...this.#writing, ...this.#queue]) {
      if (at + chunk.length > start) parts.push(chunk.subarray(Math.max(0, start - at)));
      at += chunk.length;
    }
    return Buffer.concat(parts).toString("utf8");
  }

  async flush(signal?: AbortSignal): Promise<void> {
    const target = this.#bytes;
    await this.#until(() => this.#error !== undefined || this.#stored >= Math.min(target, this.#bytes), signal);
    if (this.#error !== undefined) throw this.#error;
  }

  async truncate(size: number): Promise<void> {
    if (this.#fd === undefined || size >= this.#bytes) return;
    // The queued bytes past `size` are dropped, the rest written; then the file is cut.
    const queued = this.#bytes - this.#queue.reduce((n, c) => n + c.length, 0);
    let at = queued;
    this.#queue = this.#queue.flatMap((chunk) => {
      const kept = at >= size ? [] : [chunk.subarray(0, size - at)];
      at += chunk.length;
      return kept;
    });
    this.#bytes = Math.max(size, queued);
    await this.#until(() => !this.#busy);
    if (this.#fd === undefined) return;
    // Through the fd: the file is open for appending, so later writes land at the new end.
    if (fstatSync(this.#fd).size > size) ftruncateSync(this.#fd, size);
    this.#stored = Math.min(this.#stored, size);
    this.#bytes = size;
  }

  async close(): Promise<void> {
    if (this.#fd === undefined) return;
    // Local writes: the bytes taken are stored whatever the caller's signal says.
    await this.#until(() => !this.#busy);
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
    this.#progress.finish();
    await this.onClose(this.#stored);
    if (this.#error !== undefined) throw this.#error;
  }

  /** Starts the next write unless one is under way: every chunk queued meanwhile goes in it. */
  #pump(): void {
    if (this.#busy || this.#fd === undefined || this.#error !== undefined || !this.#queue.length) return;
    this.#busy = true;
    this.#writing = this.#queue.length > IOV_MAX ? this.#queue.splice(0, IOV_MAX) : this.#queue.splice(0);
    const length = this.#writing.reduce((n, c) => n + c.length, 0);
    writev(this.#fd, this.#writing, (e, written) => {
      if (e) return this.#failed(e);
      this.#stored += written;
      // A short write (rare on a file) sends the rest first next time.
      if (written < length) this.#queue.unshift(Buffer.concat(this.#writing).subarray(written));
      this.#writing = [];
      this.#busy = false;
      this.#progress.changed();
      this.#pump();
      this.#notify();
    });
  }

  /** The log cannot be written (disk full...): said by drain, flush and close. */
  #failed(e: unknown): void {
    this.#error = e;
    this.#queue = [];
    this.#writing = [];
    this.#busy = false;
    if (this.#fd !== undefined) this.#stored = this.#bytes = logSize(this.#fd);
    try {
      this.options.onError?.(e);
    } catch {
      // A hook's failure is not the log's.
    }
    this.#notify();
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  /** Resolves once `done()` holds, checked after each write; rejects when `signal` aborts. */
  #until(done: () => boolean, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        this.#waiters.delete(check);
        signal?.removeEventListener("abort", aborted);
        resolve();
      };
      const aborted = () => {
        this.#waiters.delete(check);
        reject(signal!.reason);
      };
      this.#waiters.add(check);
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }
}
