import type { Db, DbOptions } from "./db.js";
import { openPglite } from "./pglite-db.js";

export async function openDb(options: DbOptions): Promise<Db> {
  // node-postgres is loaded only where it is used: the embedded default starts without it.
  if (options.databaseUrl) return (await import("./postgres-db.js")).openPostgres(options.databaseUrl);
  return openPglite(options.pgliteDir ?? "memory://", options.pgliteImage);
}
