import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "./migrations.js";
import { openDb } from "./open-db.js";
import { migratedPgliteImage } from "./pglite-db.js";

// The tests' databases start from one migrated image (the global setup's) instead of initdb.
describe("an embedded database started from a migrated image", () => {
  let image: Blob;
  const dir = mkdtempSync(join(tmpdir(), "bw-image-"));
  beforeAll(async () => {
    image = await migratedPgliteImage();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds every migration, so migrating it applies none", async () => {
    const db = await openDb({ pgliteDir: "memory://", pgliteImage: image });
    try {
      expect(await migrate(db)).toEqual([]);
      expect((await db.query("SELECT count(*)::int AS n FROM schema_migrations"))[0].n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  });

  it("starts a new database in a directory, and resumes it there later instead of loading the image over it", async () => {
    const first = await openDb({ pgliteDir: dir, pgliteImage: image });
    await first.query("CREATE TABLE kept (n int)");
    await first.close();
    const again = await openDb({ pgliteDir: dir, pgliteImage: image });
    try {
      expect(await again.query("SELECT count(*)::int AS n FROM kept")).toEqual([{ n: 0 }]);
    } finally {
      await again.close();
    }
  });
});
