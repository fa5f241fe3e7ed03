import type { Db } from "./db.js";

/**
 * What records a request rather than the state it acts on: the audit log keeps every refusal
 * and the rate limit's buckets count it, by design. The migrations' own table changes with none.
 */
const NOT_STATE = ["schema_migrations", "audit_log", "request_buckets"];

/**
 * A snapshot of every table of the store's schema but NOT_STATE, for tests that assert a
 * failed request changed nothing. The tables are read from the schema, not listed here: a table
 * a later migration adds is compared without anyone remembering to add it.
 */
export async function snapshotTables(db: Db): Promise<string> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1)) ORDER BY 1`,
    [NOT_STATE],
  );
  const parts: Record<string, unknown> = {};
  for (const { table_name } of tables) parts[table_name] = await db.query(`SELECT * FROM "${table_name}" ORDER BY 1, 2`);
  return JSON.stringify(parts);
}
