import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { orUnavailable } from "./unavailable.js";

/** The little the engine needs of a database: both PGlite and PostgreSQL give it. */
export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
  const lite = await PGlite.create(dir);
  const wrap = (q: { query: PGlite["query"] }): Omit<Db, "transaction" | "close" | "kind"> => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await q.query<T>(sql, params as unknown[])).rows;
    },
  });
  const db: Db = {
    kind: "pglite",
    ...wrap(lite),
    transaction: (fn) =>
      lite.transaction((tx) =>
        fn({ kind: "pglite", ...wrap(tx), transaction: (inner) => inner(db), close: async () => {} }),
      ),
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
  const db: Db = {
    kind: "postgres",
    async query<T>(sql: string, params?: unknown[]) {
      return orUnavailable(async () => (await pool.query(sql, params)).rows as T[]);
    },
    async transaction(fn) {
      const client = await orUnavailable(() => pool.connect());
      let broken = false;
      try {
        await orUnavailable(() => client.query("BEGIN"));
        const tx: Db = {
          kind: "postgres",
          query: <T>(sql: string, params?: unknown[]) => orUnavailable(async () => (await client.query(sql, params)).rows as T[]),
          transaction: (inner) => inner(tx),
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
        client.release(broken || undefined);
      }
    },
    close: () => pool.end(),
  };
  return db;
}
