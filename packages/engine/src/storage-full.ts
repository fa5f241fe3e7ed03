import { BenchwrightError } from "./errors.js";

/**
 * Why an error (or one of its causes) says the storage is full: Node's ENOSPC and EDQUOT,
 * PostgreSQL's SQLSTATE disk_full, and PGlite's messages, which word the host's errno as
 * PostgreSQL does (`could not extend file "base/5/16436": No space left on device`).
 */
export function storageFullReason(e: unknown): string | undefined {
  for (let x = e, depth = 0; x && typeof x === "object" && depth < 8; x = (x as { cause?: unknown }).cause, depth++) {
    const { code, message } = x as { code?: unknown; message?: unknown };
    const text = typeof message === "string" ? message : "";
    if (code === "EDQUOT" || /Disk quota exceeded/i.test(text)) return "Disk quota exceeded";
    if (code === "ENOSPC" || code === "53100" || /No space left on device/i.test(text)) return "No space left on device";
  }
  return undefined;
}

/** The 507 problem of a request that could not be done because the storage is full. */
export function storageFull(cause: unknown): BenchwrightError {
  const why = storageFullReason(cause) ?? "No space left on device";
  return new BenchwrightError("insufficient_storage", `The server's storage is full (${why}); free space in its data directory and try again`, {}, { cause });
}

/**
 * A file of this server (a step's log) could not be written for want of space: Node's own
 * error, with its syscall. A host's full disk, said over SSH, is the step's failure, not this.
 */
export function isLocalStorageFull(e: unknown): e is NodeJS.ErrnoException {
  const { code, syscall } = (e ?? {}) as { code?: unknown; syscall?: unknown };
  return typeof syscall === "string" && (code === "ENOSPC" || code === "EDQUOT");
}
