import { closeSync, createReadStream, existsSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import type { Readable } from "node:stream";

/** The last `max` bytes of a log from `from` on, as text (a cut multi-byte character is replaced). */
export function readLogTail(fd: number, from: number, max: number): string {
  const size = fstatSync(fd).size;
  const start = Math.max(from, size - max);
  if (start >= size) return "";
  const buffer = Buffer.alloc(size - start);
  readSync(fd, buffer, 0, buffer.length, start);
  return buffer.toString("utf8");
}

export function logSize(fd: number): number {
  return fstatSync(fd).size;
}

/** The last `max` bytes of a log file; empty when there is none yet. */
export function readFileTail(path: string, max: number): string {
  if (!existsSync(path)) return "";
  const fd = openSync(path, "r");
  try {
    return readLogTail(fd, 0, max);
  } finally {
    closeSync(fd);
  }
}

/** Streams a stored log back without holding it in memory. */
export function openLogStream(path: string): { size: number; stream: Readable } {
  return { size: statSync(path).size, stream: createReadStream(path) };
}
