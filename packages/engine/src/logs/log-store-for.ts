import type { Db } from "../store/db.js";
import { DbLogStore, type DbLogStoreOptions } from "./db-log-store.js";
import { FileLogStore } from "./file-log-store.js";
import type { LogStore } from "./log-store.js";

/**
 * The log store that fits the database: files on the embedded PGlite (one process reads and
 * writes them), chunks in the database on PostgreSQL (every process that shares it reads them).
 */
export function logStoreFor(db: Db, dataDir: string, options: DbLogStoreOptions = {}): LogStore {
  return db.kind === "postgres" ? new DbLogStore(db, options) : new FileLogStore(dataDir, db);
}
