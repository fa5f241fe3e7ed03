import type { Db } from "./db.js";
import { MIGRATIONS } from "./migrations/index.js";

export { MIGRATIONS };

/**
 * Applies pending migrations; concurrent servers on one PostgreSQL serialize on a lock.
 * `before` stops at that migration, as a server of that time would have (tests of a migration).
 */
export async function migrate(db: Db, options: { before?: number } = {}): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(4242001)");
    await tx.query("CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await tx.query<{ id: number }>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.id === options.before) break;
      if (done.has(m.id)) continue;
      for (const statement of m.sql
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query("INSERT INTO schema_migrations (id, name) VALUES ($1, $2)", [m.id, m.name]);
      applied.push(m.id);
    }
    return applied;
  });
}
