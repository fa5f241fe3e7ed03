import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore } from "../test-support/test-store.js";
import type { Db } from "./db.js";
import type { Store } from "./store.js";
import { tablesWritten, WriteClock } from "./write-clock.js";

describe("tablesWritten", () => {
  it("names the one table of a single-table write, in any spelling", () => {
    expect(tablesWritten("INSERT INTO sessions (id) VALUES ($1)")).toBe("sessions");
    expect(tablesWritten("  update steps s SET lease_until = now() FROM executions e WHERE s.execution_id = e.id")).toBe("steps");
    expect(tablesWritten('delete from ONLY public."Executions" WHERE id = $1')).toBe("executions");
    expect(tablesWritten("INSERT INTO machines (session_id) VALUES ($1) ON CONFLICT (session_id) DO UPDATE SET ip = EXCLUDED.ip;")).toBe("machines");
  });

  it("sees no write in a read, a lock, a notification", () => {
    for (const sql of [
      "SELECT * FROM sessions",
      "select pg_advisory_xact_lock($1)",
      "SELECT pg_notify($1, '')",
      "SHOW search_path",
      "LISTEN x",
      " SELECT 1 FOR UPDATE",
    ]) {
      expect(tablesWritten(sql), sql).toBe("none");
    }
  });

  it("assumes any table changed when it cannot tell", () => {
    for (const sql of [
      "WITH moved AS (UPDATE executions SET state = 'x' RETURNING id) SELECT * FROM moved",
      "SELECT 1; DELETE FROM sessions",
      "CREATE TABLE t (id int)",
      "TRUNCATE sessions",
      "COPY sessions FROM STDIN",
      "BEGIN",
    ]) {
      expect(tablesWritten(sql), sql).toBe("any");
    }
  });
});

describe("WriteClock", () => {
  it("moves the version of the tables written, and of all on an unknown statement", () => {
    const clock = new WriteClock();
    const views = ["sessions", "executions", "steps"];
    const v0 = clock.version(views);
    clock.saw("INSERT INTO events (type) VALUES ($1)");
    clock.saw("SELECT * FROM executions");
    expect(clock.version(views)).toBe(v0);
    clock.saw("UPDATE steps SET log_bytes = $4");
    const v1 = clock.version(views);
    expect(v1).not.toBe(v0);
    clock.saw("ALTER TABLE events ADD COLUMN x int");
    expect(clock.version(views)).not.toBe(v1);
    expect(clock.version([])).not.toBe(new WriteClock().version([]));
  });
});

describe("the embedded database's write clock", () => {
  let db: Db;
  let store: Store;

  beforeAll(async () => {
    ({ db, store } = await openTestStore());
  });
  afterAll(() => db.close());

  it("moves with every write through the Db, in a transaction too", async () => {
    const views = ["sessions", "executions", "steps"];
    const before = db.writes!.version(views);
    await db.query("SELECT * FROM sessions");
    expect(db.writes!.version(views)).toBe(before);
    await store.sessions.insert({
      id: crypto.randomUUID(),
      provider_name: "local",
      service_type: "default",
      provider_class: "local",
      driver: null,
      region: null,
      config_sealed: "x",
      state: "active",
      created: new Date(),
    });
    expect(db.writes!.version(views)).not.toBe(before);
  });

  // The clock knows statements, not what the database does behind them: a trigger or a rule
  // that writes another table would leave views of that table stale.
  it("has a schema without triggers or rules, which the clock could not see", async () => {
    const triggers = await db.query(
      "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE NOT t.tgisinternal AND n.nspname = current_schema()",
    );
    const rules = await db.query("SELECT rulename FROM pg_rules WHERE schemaname = current_schema()");
    expect({ triggers, rules }).toEqual({ triggers: [], rules: [] });
  });
});
