import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testPgliteImage } from "@benchwright/testing/pglite-image";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb } from "./open-db.js";
import { DirectoryLocked, lockDirectory } from "./dir-lock.js";

describe("the embedded database's directory lock", () => {
  let parent: string;
  let dir: string;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "bw-lock-"));
    dir = join(parent, "db");
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it("refuses a directory a living process holds, naming it", () => {
    const holder = spawn("sleep", ["30"]);
    try {
      writeFileSync(`${dir}.lock`, `${holder.pid}\n`);
      expect(() => lockDirectory(dir)).toThrow(DirectoryLocked);
      expect(() => lockDirectory(dir)).toThrow(`in use by process ${holder.pid}`);
      // Refused, it leaves the holder's lock as it was.
      expect(readFileSync(`${dir}.lock`, "utf8")).toBe(`${holder.pid}\n`);
    } finally {
      holder.kill();
    }
  });

  it("takes over the lock of a process that died without releasing it", () => {
    const dead = spawnSync("true").pid;
    writeFileSync(`${dir}.lock`, `${dead}\n`);
    const release = lockDirectory(dir);
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("holds the directory of an open database until it is closed", async () => {
    // Started from the run's migrated image rather than a fresh initdb: the lock is the point here.
    const db = await openDb({ pgliteDir: dir, pgliteImage: testPgliteImage() });
    await expect(openDb({ pgliteDir: dir })).rejects.toThrow(DirectoryLocked);
    await db.close();
    const again = await openDb({ pgliteDir: dir });
    expect(await again.query("select 1 as one")).toEqual([{ one: 1 }]);
    await again.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  }, 60_000);
});
