import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { openDb } from "./open-db.js";
import { PGLITE_SETTINGS } from "./pglite-settings.js";

describe("the embedded database's settings", () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ pgliteDir: "memory://" });
  });
  afterAll(() => db.close());

  it("are the ones PostgreSQL runs with, not its server defaults", async () => {
    for (const [name, value] of Object.entries(PGLITE_SETTINGS)) {
      const [row] = await db.query<Record<string, string>>(`SHOW ${name}`);
      expect(row[name], name).toBe(value);
    }
  });
});
