// How much memory a process holds.
import { readFileSync } from "node:fs";

export const MiB = 2 ** 20;

/** Resident set size (or its peak, `VmHWM`) of a process, in bytes, from /proc. */
export function residentBytes(pid, field = "VmRSS") {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(m[1]) * 1024;
}
