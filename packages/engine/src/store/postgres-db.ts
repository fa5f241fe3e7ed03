import pg from "pg";
import { COMMIT_PROBE_SQL, CommitProbe } from "./commit-probe.js";
import type { Db } from "./db.js";
import { KeyedMutex } from "./keyed-mutex.js";
import { listenPostgres } from "./pg-listener.js";
import { isDatabaseUnreachable, orUnavailable } from "./unavailable.js";

const READ = /^\s*SELECT\b/i;

/** The engine's database on a PostgreSQL server, shared by every process that opens it. */
export function openPostgres(url: string): Db {
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
  // A pooled connection that the server or the network dropped while it was idle can take one
  // query down before the pool has noticed (it then discards it): a read is sent again, once,
  // on a fresh connection, rather than failing its caller (an event stream's shared read ended
  // every stream with such an ECONNRESET). A write is not: whether it was applied is unknown.
  const query = <T>(sql: string, params?: unknown[]) =>
    orUnavailable(async () => {
      try {
        return (await pool.query(sql, params)).rows as T[];
      } catch (e) {
        if (!READ.test(sql) || !isDatabaseUnreachable(e)) throw e;
        return (await pool.query(sql, params)).rows as T[];
      }
    });
  const db: Db = {
    kind: "postgres",
    query,
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
    commits: new CommitProbe(async () => (await query<{ snapshot: string }>(COMMIT_PROBE_SQL))[0].snapshot),
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
