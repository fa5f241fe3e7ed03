import type { Db } from "../db.js";

/** A statement and its parameters, as a builder of this folder makes it: building apart from running, as pg-boss's plans do. */
export interface Sql {
  text: string;
  values?: unknown[];
}

/** Runs a built statement on `db` (or a transaction's). */
export function run<T = Record<string, unknown>>(db: Db, sql: Sql): Promise<T[]> {
  return db.query<T>(sql.text, sql.values);
}

/** A jsonb parameter: its JSON text, or null. */
export function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
