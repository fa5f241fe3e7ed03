import type { CommitProbe } from "./commit-probe.js";
import type { WriteClock } from "./write-clock.js";

/** The little the engine needs of a database: both PGlite and PostgreSQL give it. */
export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Runs `fn` while holding the lock named `key` for every process that shares the database
   * (an advisory lock on PostgreSQL, whose server frees it if this process dies).
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (delivered when the notifying transaction
   * commits, never when it rolls back), and after each reconnection of the listening
   * connection, when notifications may have been missed. Returns the function that stops it;
   * close() stops it too. Absent on a transaction's Db.
   */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /** Counts this process's writes where it is the database's only writer (the embedded PGlite); absent elsewhere. */
  readonly writes?: WriteClock;
  /** Tells whether any transaction committed between two calls, where other processes write too (PostgreSQL); absent elsewhere. */
  readonly commits?: CommitProbe;
  readonly kind: "pglite" | "postgres";
}

export interface DbOptions {
  /** PostgreSQL connection string; unset means the embedded PGlite. */
  databaseUrl?: string;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  /** What a new embedded database starts from instead of an empty one: `migratedPgliteImage()` (tests). */
  pgliteImage?: Blob;
}
