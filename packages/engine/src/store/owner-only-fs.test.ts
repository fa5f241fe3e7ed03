import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { testPgliteImage } from "@benchwright/testing/pglite-image";
import { Engine } from "../engine.js";
import { openDb } from "./open-db.js";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

/** Every entry under `dir` whose mode lets its group or others write (or anything, with `bits`), as `path mode`. */
function entriesWith(dir: string, bits: number): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const st = lstatSync(path);
      if (st.mode & bits) found.push(`${path} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return found;
}

describe("the embedded data directory's modes", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it("is created 0700, and nothing PGlite writes in it may be written, or read, by others", async () => {
    root = mkdtempSync(join(tmpdir(), "bw-modes-"));
    const dataDir = join(root, "data");
    const engine = await Engine.open({ dataDir, configDir: REPO_CONFIG });
    try {
      const session = await engine.createSession({ provider: "local", service: "default" });
      await engine.createExecution(session.id, { tool: "idle", workload: "idle0" });
    } finally {
      await engine.close();
    }
    expect((lstatSync(dataDir).mode & 0o777).toString(8)).toBe("700");
    // PGlite's initial files (PG_VERSION, base/, pg_hba.conf...) came out 0666.
    expect(entriesWith(dataDir, 0o022)).toEqual([]);
    expect(entriesWith(join(dataDir, "db"), 0o077)).toEqual([]);
  }, 180_000);

  it("takes group and world access away from a database an earlier version left open", async () => {
    root = mkdtempSync(join(tmpdir(), "bw-modes-"));
    const dir = join(root, "db");
    // Made from the run's migrated image, not by initdb: the open that follows is what this test is about.
    const db = await openDb({ pgliteDir: dir, pgliteImage: testPgliteImage() });
    await db.query("CREATE TABLE t (x text)");
    await db.close();
    chmodSync(join(dir, "PG_VERSION"), 0o666);
    chmodSync(join(dir, "base"), 0o777);
    const again = await openDb({ pgliteDir: dir });
    try {
      await again.query("INSERT INTO t VALUES ('a')");
      expect(entriesWith(dir, 0o077)).toEqual([]);
    } finally {
      await again.close();
    }
  }, 60_000);
});
