import { setFlagsFromString } from "node:v8";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";

/**
 * PostgreSQL's settings for the embedded database: a service database of a few thousand rows,
 * one backend, no other connection. PostgreSQL's defaults size shared memory for a server
 * (128 MB of shared buffers, 100 connections), and the WebAssembly build keeps every page
 * of it it ever touched: about 130 MiB of the process's resident memory went there.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: "16MB",
  // Sizes the lock table and the per-backend arrays; --single runs one backend.
  max_connections: "8",
  wal_buffers: "512kB",
  temp_buffers: "1MB",
};

export function pgliteOptions(): PGliteOptions {
  compileWasmWithoutTierUp();
  return {
    startParams: [...PGlite.defaultStartParams, ...Object.entries(PGLITE_SETTINGS).flatMap(([k, v]) => ["-c", `${k}=${v}`])],
  };
}

let flagged = false;

/**
 * V8 compiles WebAssembly with its baseline compiler, then again with its optimizing one for
 * the functions that run often. For PGlite's 9 MB module the second copy (and the memory its
 * compiler threads keep) costs 50 to 70 MiB of resident memory, for no gain we could measure:
 * a query's time goes to the JavaScript side and the file system, not to the WebAssembly
 * code (about 0.3 ms a query either way). The flag is process-wide, read when a module is
 * compiled: it must be set before PGlite compiles its module, and it only changes how
 * WebAssembly is compiled (PGlite's, and undici's HTTP parser).
 */
function compileWasmWithoutTierUp(): void {
  if (flagged) return;
  flagged = true;
  setFlagsFromString("--liftoff-only");
}
