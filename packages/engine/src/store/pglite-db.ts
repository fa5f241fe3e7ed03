import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Db } from "./db.js";
import { lockDirectory } from "./dir-lock.js";
import { KeyedMutex } from "./keyed-mutex.js";
import { migrate } from "./migrations.js";
import { OwnerOnlyNodeFS, removeGroupAndWorldAccess } from "./owner-only-fs.js";
import { pgliteOptions } from "./pglite-settings.js";
import { WriteClock } from "./write-clock.js";

/**
 * The engine's embedded database, in `dir` (or in memory for `memory://`), owned by this process alone.
 * A new one starts from `image` (a data dir as `migratedPgliteImage` dumps it) when given, instead of
 * running initdb: tests open hundreds of databases, and initdb is most of a PGlite's start.
 */
export async function openPglite(dir: string, image?: Blob): Promise<Db> {
  let release = () => {};
  if (!dir.startsWith("memory://")) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    removeGroupAndWorldAccess(dir);
    release = lockDirectory(dir);
  }
  let lite: PGlite;
  try {
    // An existing database is resumed, never overwritten by the image.
    const loadDataDir = image && (dir.startsWith("memory://") || !existsSync(join(dir, "PG_VERSION"))) ? image : undefined;
    lite = dir.startsWith("memory://")
      ? await PGlite.create(dir, { ...pgliteOptions(), loadDataDir })
      : await PGlite.create({ ...pgliteOptions(), loadDataDir, fs: new OwnerOnlyNodeFS(dir) });
  } catch (e) {
    release();
    throw e;
  }
  return pgliteDb(lite, release);
}

/** A new in-memory database with every migration applied, as a tarball `openPglite` can start from. */
export async function migratedPgliteImage(): Promise<Blob> {
  const lite = await PGlite.create("memory://", pgliteOptions());
  try {
    await migrate(pgliteDb(lite, () => {}));
    return await lite.dumpDataDir("none");
  } finally {
    await lite.close();
  }
}

function pgliteDb(lite: PGlite, release: () => void): Db {
  const writes = new WriteClock();
  const wrap = (q: { query: PGlite["query"] }): Pick<Db, "query"> => ({
    async query<T>(sql: string, params?: unknown[]) {
      // Counted before and after: a read that overlaps the write in any way is not kept.
      writes.saw(sql);
      try {
        return (await q.query<T>(sql, params as unknown[])).rows;
      } finally {
        writes.saw(sql);
      }
    },
  });
  // One process owns the embedded database: a lock in memory is a lock for everyone.
  const locks = new KeyedMutex();
  const exclusive: Db["exclusive"] = (key, fn) => locks.run(key, fn);
  const db: Db = {
    kind: "pglite",
    ...wrap(lite),
    transaction: (fn) => lite.transaction((tx) => fn({ kind: "pglite", ...wrap(tx), transaction: (inner) => inner(db), exclusive, close: async () => {} })),
    exclusive,
    writes,
    // PGlite delivers notifications in process, at commit, like a server does.
    async listen(channel, onNotify) {
      const unlisten = await lite.listen(channel, () => onNotify());
      return () => unlisten();
    },
    close: () => lite.close().finally(release),
  };
  return db;
}
