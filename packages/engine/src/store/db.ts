import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { KeyedMutex } from "./keyed-mutex.js";
import { listenPostgres } from "./pg-listener.js";
import { pgliteOptions } from "./pglite-settings.js";
import { orUnavailable } from "./unavailable.js";
import { WriteClock } from "./write-clock.js";

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
  readonly kind: "pglite" | "postgres";
}

export interface DbOptions {
  /** PostgreSQL connection string; unset means the embedded PGlite. */
  databaseUrl?: string;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
}

export async function openDb(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.pgliteDir ?? "memory://");
}

async function openPglite(dir: string): Promise<Db> {
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const lite = await PGlite.create(dir, pgliteOptions());
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
    close: () => lite.close(),
  };
  return db;
}

function openPostgres(url: string): Db {
  // A connection attempt that hangs (a server that accepts and never answers) must end, so
  // that a request answers 503 instead of waiting forever.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => {});
  // Waiters of this process queue in memory, so that at most one pooled client per key waits on the server.
  const locks = new KeyedMutex();
  const listeners = new Set<() => Promise<void>>();
  const exclusive: Db["exclusive"] = (key, fn) =>
    locks.run(key, async () => {
      const client = await orUnavailable(() => pool.connect());
      let broken = false;
      // A checked-out client whose connection drops emits 'error': without a listener that crashes the process.
      const onError = () => (broken = true);
      client.on("error", onError);
      try {
        await orUnavailable(() => client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]));
        try {
          return await fn();
        } finally {
          await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch(() => (broken = true));
        }
      } finally {
        // A client whose unlock failed is dropped: its session (and so the lock) ends with it.
        client.off("error", onError);
        client.release(broken || undefined);
      }
    });
  const db: Db = {
    kind: "postgres",
    async query<T>(sql: string, params?: unknown[]) {
      return orUnavailable(async () => (await pool.query(sql, params)).rows as T[]);
    },
    async transaction(fn) {
      const client = await orUnavailable(() => pool.connect());
      let broken = false;
      // A checked-out client whose connection drops emits 'error': without a listener that crashes the process.
      const onError = () => (broken = true);
      client.on("error", onError);
      try {
        await orUnavailable(() => client.query("BEGIN"));
        const tx: Db = {
          kind: "postgres",
          query: <T>(sql: string, params?: unknown[]) => orUnavailable(async () => (await client.query(sql, params)).rows as T[]),
          transaction: (inner) => inner(tx),
          exclusive,
          close: async () => {},
        };
        const result = await fn(tx);
        await orUnavailable(() => client.query("COMMIT"));
        return result;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => (broken = true));
        throw e;
      } finally {
        // A client whose connection died goes back destroyed, not into the pool.
        client.off("error", onError);
        client.release(broken || undefined);
      }
    },
    exclusive,
    async listen(channel, onNotify) {
      const stop = listenPostgres(url, channel, onNotify);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
  return db;
}
