import type { Db } from "./db.js";

const TABLES = ["sessions", "executions", "steps", "machines", "resources", "events", "plans", "plan_runs", "plan_run_cells"];

/** A snapshot of every table, for tests that assert a failed request changed nothing. */
export async function snapshotTables(db: Db): Promise<string> {
  const parts: unknown[] = [];
  for (const table of TABLES) parts.push(await db.query(`SELECT * FROM ${table} ORDER BY 1, 2`));
  return JSON.stringify(parts);
}
