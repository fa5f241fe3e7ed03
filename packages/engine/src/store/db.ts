import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { lockDirectory } from "./dir-lock.js";
import { KeyedMutex } from "./keyed-mutex.js";
import { OwnerOnlyNodeFS, removeGroupAndWorldAccess } from "./owner-only-fs.js";
import { pgliteOptions } from "./pglite-settings.js";
import { WriteClock } from "./write-clock.js";
import type { CommitProbe } from "./commit-probe.js";

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
}

export async function openDb(options: DbOptions): Promise<Db> {
  // node-postgres is loaded only where it is used: the embedded default starts without it.
  if (options.databaseUrl) return (await import("./postgres-db.js")).openPostgres(options.databaseUrl);
  return openPglite(options.pgliteDir ?? "memory://");
}

async function openPglite(dir: string): Promise<Db> {
  let release = () => {};
  if (!dir.startsWith("memory://")) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    removeGroupAndWorldAccess(dir);
    release = lockDirectory(dir);
  }
  let lite: PGlite;
  try {
    lite = dir.startsWith("memory://")
      ? await PGlite.create(dir, pgliteOptions())
      : await PGlite.create({ ...pgliteOptions(), fs: new OwnerOnlyNodeFS(dir) });
  } catch (e) {
    release();
    throw e;
  }
  const writes = new WriteClock();
  const wrap = (q: { query: PGlite["query"] }): Pick<Db, "query"> => ({
    async query<T>(sql: string, params?: unknown[]) {
      // Counted before and after: a read that overlaps the write in any way is not kept.
      writes.saw(sql);
      try {
        return (await q.query<T>(sql, params as unknown[])).rows;
      } finally {
        writes.saw(sql);
      }
    },
  });
  // One process owns the embedded database: a lock in memory is a lock for everyone.
  const locks = new KeyedMutex();
  const exclusive: Db["exclusive"] = (key, fn) => locks.run(key, fn);
  const db: Db = {
    kind: "pglite",
    ...wrap(lite),
    transaction: (fn) =>
      lite.transaction((tx) =>
        fn({ kind: "pglite", ...wrap(tx), transaction: (inner) => inner(db), exclusive, close: async () => {} }),
      ),
    exclusive,
    writes,
    // PGlite delivers notifications in process, at commit, like a server does.
    async listen(channel, onNotify) {
      const unlisten = await lite.listen(channel, () => onNotify());
      return () => unlisten();
    },
    close: () => lite.close().finally(release),
  };
  return db;
}
