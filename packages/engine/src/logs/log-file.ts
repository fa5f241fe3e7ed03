import { fstatSync, readSync } from "node:fs";

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
