/**
 * Counts the statements that may change each table, as they go through one Db. Where this
 * process is the database's only writer (the embedded PGlite), a read made while the counts
 * of the tables it reads did not move is still what the database holds: the engine keeps
 * its read views on that (ReadCache) instead of asking the database again.
 *
 * It knows statements by their text. A single-table INSERT, UPDATE or DELETE moves that
 * table's count; a plain SELECT, SHOW or LISTEN moves nothing; anything else (DDL, a WITH
 * that may hold a write, several statements in one string) moves every count. Transactions
 * need nothing more: PGlite runs no other statement until one ends, so a read made after
 * its last count moved sees all of it (or, rolled back, none). A trigger that writes another
 * table would escape the count: the migrations define none, and write-clock.test.ts fails
 * when one appears.
 */
export class WriteClock {
  private everything = 0;
  private readonly tables = new Map<string, number>();

  /** Records `sql`: call it before the statement is sent and again once it has ended. */
  saw(sql: string): void {
    const written = tablesWritten(sql);
    if (written === "none") return;
    if (written === "any") this.everything++;
    else this.tables.set(written, (this.tables.get(written) ?? 0) + 1);
  }

  /** A number that differs whenever one of `tables` may have changed since it was taken. */
  version(tables: readonly string[]): number {
    let v = this.everything;
    for (const t of tables) v += this.tables.get(t) ?? 0;
    return v;
  }
}

/** The one table `sql` may write, "none" for a statement that writes no table, "any" when it cannot tell. */
export function tablesWritten(sql: string): string | "none" | "any" {
  const text = sql.trim();
  // Several statements in one string (a semicolon before the end): anything may change.
  if (text.replace(/;\s*$/, "").includes(";")) return "any";
  if (READ_ONLY.test(text)) return "none";
  const m = SINGLE_TABLE_WRITE.exec(text);
  return m ? m[1].replace(/"/g, "").split(".").pop()!.toLowerCase() : "any";
}

// SELECT ... FOR UPDATE only locks; pg_notify and nextval change no table a read returns.
const READ_ONLY = /^(select|show|listen|unlisten|notify)\b/i;
const SINGLE_TABLE_WRITE = /^(?:insert\s+into|update|delete\s+from)\s+(?:only\s+)?((?:"[^"]+"|\w+)(?:\.(?:"[^"]+"|\w+))?)/i;
