import { createReadStream, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import type { Db } from "../store/db.js";
import type { StepKey } from "../model/steps.js";
import { recordLogBytes } from "./log-bytes.js";
import { FileLogWriter } from "./file-log-writer.js";
import { logFilePath, type ByteRange, type LogStore, type LogWriter, type LogWriterOptions } from "./log-store.js";

/**
 * Step logs as files under the data dir: the embedded default, where one process serves
 * and runs every step. The operating system buffers the writes, made off the event loop
 * (file-log-writer.ts), and the tail is read back from the file, not kept in memory.
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
