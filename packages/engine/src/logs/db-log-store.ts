import { Readable } from "node:stream";
import type { Db } from "../store/db.js";
import type { StepKey } from "../model/steps.js";
import { sleep } from "../transport/backoff.js";
import { TAIL_CAPACITY, type ByteRange, type LogStore, type LogWriter, type LogWriterOptions } from "./log-store.js";
import { ProgressReporter } from "./progress.js";
import { TailBuffer } from "./tail-buffer.js";

/** No stored chunk is longer: a reader finds the chunk holding an offset within this distance before it. */
const MAX_CHUNK_BYTES = 1024 * 1024;

export interface DbLogStoreOptions {
  /** Bytes per stored chunk; a full chunk is stored at once. Default 256 KiB, at most MAX_CHUNK_BYTES. */
  chunkBytes?: number;
  /** A partial chunk waits at most this long before it is stored. Default 250 ms. */
  flushIntervalMs?: number;
  /** Chunks per insert (one transaction). Default 4. */
  batchChunks?: number;
  /** Bytes waiting to be stored past which `writable` turns false. Default 8 MiB, at least one chunk. */
  highWaterMark?: number;
  /** Bytes of the log's end a writer keeps for `tail`. Default (and at most) 8 MiB. */
  tailBytes?: number;
  /** Chunks fetched per query by a reader. Default 8. */
  readChunks?: number;
}

/**
 * Step logs as chunks in the `log_chunks` table, for PostgreSQL: every server and worker
 * that shares the database reads every log, while the step runs and after. A chunk's key
 * is its attempt and start offset. Two writers of one attempt (one that lost the step and
 * has not noticed yet, and the one that took it over) write the same bytes at the same
 * offsets, maybe cut differently: at one offset the longer chunk is kept, and readers skip
 * the bytes of a chunk that they have already sent, so no byte goes missing or comes twice.
 */
export class DbLogStore implements LogStore {
  readonly kind = "db" as const;
  readonly #options: Required<DbLogStoreOptions>;

  constructor(
    private readonly db: Db,
    options: DbLogStoreOptions = {},
  ) {
    const chunkBytes = Math.min(MAX_CHUNK_BYTES, options.chunkBytes ?? 256 * 1024);
    this.#options = {
      chunkBytes,
      flushIntervalMs: options.flushIntervalMs ?? 250,
      batchChunks: options.batchChunks ?? 4,
      highWaterMark: Math.max(chunkBytes, options.highWaterMark ?? 8 * 1024 * 1024),
      tailBytes: Math.min(TAIL_CAPACITY, options.tailBytes ?? TAIL_CAPACITY),
      readChunks: options.readChunks ?? 8,
    };
  }

  async open(key: StepKey, _logFile: string, options: LogWriterOptions = {}): Promise<LogWriter> {
    const size = await this.size(key);
    // A resumed step's parser needs what was stored before: its tail is read back once.
    const tailStart = Math.max(0, size - this.#options.tailBytes);
    const tail = new TailBuffer(this.#options.tailBytes, tailStart);
    for await (const chunk of this.read(key, { start: tailStart, end: size })) tail.push(chunk as Buffer);
    return new DbLogWriter(this.db, key, size, tail, this.#options, options);
  }

  async size(key: StepKey): Promise<number> {
    const rows = await this.db.query<{ size: string | number | null }>(
      "SELECT max(start_offset + octet_length(data)) AS size FROM log_chunks WHERE execution_id = $1 AND step = $2 AND attempt = $3",
      keyParams(key),
    );
    return Number(rows[0]?.size ?? 0);
  }

  read(key: StepKey, range: ByteRange = { start: 0 }): Readable {
    return Readable.from(this.#chunks(key, range.start, range.end ?? Number.MAX_SAFE_INTEGER), { objectMode: false });
  }

  async exists(key: StepKey): Promise<boolean> {
    const rows = await this.db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM log_chunks WHERE execution_id = $1 AND step = $2 AND attempt = $3)
           OR EXISTS (SELECT 1 FROM steps WHERE execution_id = $1 AND step = $2 AND attempt = $3) AS found`,
      keyParams(key),
    );
    return rows[0]?.found === true;
  }

  /** The stored bytes from `start` to `end`, a few chunks per query, each byte once. */
  async *#chunks(key: StepKey, start: number, end: number): AsyncGenerator<Buffer> {
    let at = start;
    while (at < end) {
      const rows = await this.db.query<{ start_offset: string | number; data: Uint8Array }>(
        // The lower bound on start_offset keeps to the primary key's index; the next condition picks the chunks that reach `at`.
        `SELECT start_offset, data FROM log_chunks
          WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND start_offset > $4 AND start_offset < $5
            AND start_offset + octet_length(data) > $6
          ORDER BY start_offset LIMIT $7`,
        [...keyParams(key), at - MAX_CHUNK_BYTES, end, at, this.#options.readChunks],
      );
      if (rows.length === 0) return;
      for (const row of rows) {
        const offset = Number(row.start_offset);
        const data = asBuffer(row.data);
        if (offset + data.length <= at) continue; // overlapped by a chunk already sent
        if (offset > at) throw new Error(`The log of ${key.step} ${key.attempt} of execution ${key.execution_id} lacks bytes ${at} to ${offset}`);
        const piece = data.subarray(at - offset, Math.min(data.length, end - offset));
        at += piece.length;
        yield piece;
        if (at >= end) return;
      }
    }
  }
}

/** A batch of chunks on its way to the table, kept until it is stored. */
interface Batch {
  offset: number;
  chunks: Buffer[];
  bytes: number;
}

class DbLogWriter implements LogWriter {
  /** Written, not yet in a batch. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #batch: Batch | undefined;
  /** Bytes stored: the offset of the batch, or of the pending bytes when there is none. */
  #stored: number;
  #bytes: number;
  /** Partial chunks up to this offset are stored without waiting for a full chunk. */
  #flushTo = 0;
  #timer: NodeJS.Timeout | undefined;
  #pumping = false;
  #truncating = false;
  #closed = false;
  readonly #stop = new AbortController();
  #waiters = new Set<() => void>();
  readonly #progress: ProgressReporter;

  constructor(
    private readonly db: Db,
    private readonly key: StepKey,
    size: number,
    private readonly tailBuffer: TailBuffer,
    private readonly options: Required<DbLogStoreOptions>,
    private readonly hooks: LogWriterOptions,
  ) {
    this.#stored = size;
    this.#bytes = size;
    this.#progress = new ProgressReporter(() => this.#stored, hooks.onProgress);
  }

  get bytes(): number {
    return this.#bytes;
  }

  get writable(): boolean {
    return !this.#closed && this.#waiting() < this.options.highWaterMark;
  }

  write(chunk: Buffer): void {
    if (this.#closed || chunk.length === 0) return;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    this.#bytes += chunk.length;
    this.tailBuffer.push(chunk);
    if (this.#pendingBytes >= this.options.chunkBytes) this.#kick();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#flushTo = Math.max(this.#flushTo, this.#bytes);
        this.#kick();
      }, this.options.flushIntervalMs);
      this.#timer.unref();
    }
  }

  drain(signal?: AbortSignal): Promise<void> {
    return this.#until(() => this.#waiting() < this.options.highWaterMark, signal);
  }

  tail(max: number, from = 0): string {
    return this.tailBuffer.text(max, from);
  }

  async flush(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const target = this.#bytes;
    this.#flushTo = Math.max(this.#flushTo, target);
    this.#kick();
    await this.#until(() => this.#stored >= Math.min(target, this.#bytes), signal);
  }

  async truncate(size: number): Promise<void> {
    if (size >= this.#bytes) return;
    const pendingStart = this.#stored + (this.#batch?.bytes ?? 0);
    if (size >= pendingStart) {
      this.#keepPending(size - pendingStart);
    } else {
      this.#truncating = true;
      try {
        this.#keepPending(0);
        await this.#until(() => !this.#batch);
        await this.db.query(
          `WITH dropped AS (
             DELETE FROM log_chunks WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND start_offset >= $4
           ), cut AS (
             UPDATE log_chunks SET data = substring(data FROM 1 FOR ($4 - start_offset)::integer)
              WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND start_offset < $4 AND start_offset + octet_length(data) > $4
           )
           UPDATE steps SET log_bytes = $4 WHERE execution_id = $1 AND step = $2 AND attempt = $3`,
          [...keyParams(this.key), size],
        );
        this.#stored = size;
      } finally {
        this.#truncating = false;
      }
    }
    this.#bytes = size;
    this.#flushTo = Math.min(this.#flushTo, size);
    this.tailBuffer.truncate(size);
    this.#notify();
    this.#kick();
  }

  async close(signal?: AbortSignal): Promise<void> {
    if (this.#closed) return;
    try {
      await this.flush(signal);
    } finally {
      // Given up (the signal): what was not stored is still on the host, and whoever
      // follows the step next reads it from where the stored log ends.
      this.#closed = true;
      clearTimeout(this.#timer);
      this.#stop.abort();
      this.#progress.finish();
      this.#notify();
    }
  }

  /** Bytes written and not yet stored. */
  #waiting(): number {
    return this.#bytes - this.#stored;
  }

  /** Keeps the first `keep` pending bytes, drops the rest. */
  #keepPending(keep: number): void {
    const kept: Buffer[] = [];
    let room = keep;
    for (const chunk of this.#pending) {
      if (room <= 0) break;
      kept.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
      room -= Math.min(room, chunk.length);
    }
    this.#pending = kept;
    this.#pendingBytes = keep;
  }

  /** Starts storing batches unless that is under way. */
  #kick(): void {
    if (this.#pumping || this.#stop.signal.aborted) return;
    this.#pumping = true;
    void this.#pump();
  }

  async #pump(): Promise<void> {
    let failures = 0;
    for (;;) {
      this.#batch ??= this.#nextBatch();
      const batch = this.#batch;
      if (!batch || this.#stop.signal.aborted) {
        // Decided and recorded in the same step: a write after this starts a new pump.
        this.#pumping = false;
        return;
      }
      try {
        await this.#insert(batch);
        this.#stored = batch.offset + batch.bytes;
        this.#batch = undefined;
        failures = 0;
        this.#progress.changed();
        this.#notify();
      } catch (e) {
        failures++;
        try {
          this.hooks.onError?.(e);
        } catch {
          // A hook's failure is not the log's.
        }
        this.#notify();
        // The database is out or slow: the batch waits and goes again; writers see `writable` turn false.
        await sleep(Math.min(250 * 2 ** Math.min(failures - 1, 5), 5_000), this.#stop.signal).catch(() => {});
      }
    }
  }

  /** The next chunks to store: full ones, and a partial one when a flush is due. */
  #nextBatch(): Batch | undefined {
    if (this.#truncating) return undefined;
    const offset = this.#stored;
    const chunks: Buffer[] = [];
    let bytes = 0;
    while (chunks.length < this.options.batchChunks && this.#pendingBytes > 0) {
      const due = this.#flushTo > offset + bytes;
      if (this.#pendingBytes < this.options.chunkBytes && !due) break;
      const chunk = this.#take(Math.min(this.options.chunkBytes, this.#pendingBytes));
      chunks.push(chunk);
      bytes += chunk.length;
    }
    return chunks.length ? { offset, chunks, bytes } : undefined;
  }

  /** The first `n` pending bytes, as one buffer. */
  #take(n: number): Buffer {
    const parts: Buffer[] = [];
    let need = n;
    while (need > 0) {
      const first = this.#pending[0];
      if (first.length <= need) {
        parts.push(first);
        this.#pending.shift();
        need -= first.length;
      } else {
        parts.push(first.subarray(0, need));
        this.#pending[0] = first.subarray(need);
        need = 0;
      }
    }
    this.#pendingBytes -= n;
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
  }

  async #insert(batch: Batch): Promise<void> {
    const params: unknown[] = keyParams(this.key);
    const rows = batch.chunks.map((chunk, i) => {
      params.push(batch.offset + batch.chunks.slice(0, i).reduce((n, c) => n + c.length, 0), chunk);
      return `($1, $2, $3, $${params.length - 1}, $${params.length})`;
    });
    params.push(batch.offset + batch.bytes);
    // One statement, so that the chunks and the row's size change together without a transaction.
    await this.db.query(
      `WITH stored AS (
         INSERT INTO log_chunks (execution_id, step, attempt, start_offset, data) VALUES ${rows.join(", ")}
         ON CONFLICT (execution_id, step, attempt, start_offset)
         DO UPDATE SET data = EXCLUDED.data WHERE octet_length(EXCLUDED.data) > octet_length(log_chunks.data)
       )
       UPDATE steps SET log_bytes = GREATEST(log_bytes, $${params.length}) WHERE execution_id = $1 AND step = $2 AND attempt = $3`,
      params,
    );
  }

  #notify(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves once `done()` holds, rechecked at every change of the writer. */
  async #until(done: () => boolean, signal?: AbortSignal): Promise<void> {
    while (!done()) {
      signal?.throwIfAborted();
      if (this.#stop.signal.aborted) throw new Error(`The log of ${this.key.step} ${this.key.attempt} of execution ${this.key.execution_id} is closed`);
      this.#kick();
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          this.#waiters.delete(wake);
          reject(signal!.reason);
        };
        const wake = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        this.#waiters.add(wake);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
  }
}

function keyParams(key: StepKey): unknown[] {
  return [key.execution_id, key.step, key.attempt];
}

/** node-postgres gives a Buffer, PGlite a Uint8Array: the same bytes, without a copy. */
function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
