import type { Db, DbOptions } from "./db.js";

export async function openDb(options: DbOptions): Promise<Db> {
  // Each database's client is loaded only where it is used: node-postgres stays out of the
  // embedded default, and PGlite (its WebAssembly module's glue, ~60 ms at start) out of a server on PostgreSQL.
  if (options.databaseUrl) return (await import("./postgres-db.js")).openPostgres(options.databaseUrl);
  return (await import("./pglite-db.js")).openPglite(options.pgliteDir ?? "memory://", options.pgliteImage);
}

/** A new in-memory database with every migration applied, as a tarball an embedded database can start from (tests). */
export async function migratedPgliteImage(): Promise<Blob> {
  return (await import("./pglite-db.js")).migratedPgliteImage();
}
