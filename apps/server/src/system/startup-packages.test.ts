import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestSchema, serverDirs } from "@benchwright/testing";
import { describe, expect, it } from "vitest";
import { startProcess } from "../test-support/processes.js";

const HOOK = resolve(dirname(fileURLToPath(import.meta.url)), "../test-support/loaded-modules-hook.mjs");

/** Packages a server needs only once something asks for them: a cloud's SDK, SSH, PostgreSQL, the report's charts. */
const ON_FIRST_USE = [
  "@aws-sdk/client-ec2",
  "@azure/arm-compute",
  "@azure/arm-network",
  "@azure/identity",
  "@google-cloud/compute",
  "google-auth-library",
  "ssh2",
  "pg",
  "pg-boss",
  "echarts",
];

/** The packages (`node_modules/<name>` or `<@scope/name>`) among the modules a process loaded. */
function packagesOf(modules: string): Set<string> {
  return new Set([...modules.matchAll(/node_modules\/((?:@[^/\n]+\/)?[^/\n]+)/g)].map((m) => m[1]));
}

/** The packages a server started with `env` (beside its data and config dirs) has loaded once it answered its first request. */
async function loadedByServer(dirs: { dataDir: string; configDir: string }, env: Record<string, string> = {}): Promise<Set<string>> {
  const file = join(dirs.dataDir, "loaded-modules.txt");
  const server = await startProcess(
    "serve",
    { BENCHWRIGHT_DATA_DIR: dirs.dataDir, BENCHWRIGHT_CONFIG_DIR: dirs.configDir, LOADED_MODULES_FILE: file, BENCHWRIGHT_API_TOKEN: "", ...env },
    ["--import", HOOK],
  );
  try {
    expect((await fetch(`${server.api}/benchmarks/`)).status).toBe(200);
  } finally {
    // A bound, not a wait: the list is written at exit, which a kill (after 15 s by default) skips; under CI's load a stop took longer.
    await server.stop(60_000);
  }
  return packagesOf(readFileSync(file, "utf8"));
}

// Issue 36: a started server loads what it serves, and the rest when first used (dynamic import).
describe("what a started server has loaded", () => {
  it("on the embedded database, after answering: no cloud SDK, no SSH, no PostgreSQL client, no chart renderer", async () => {
    const dirs = serverDirs("startup-packages");
    try {
      const loaded = await loadedByServer(dirs, { DATABASE_URL: "" });
      // What it does load, so that an empty list (a hook that saw nothing) cannot pass.
      expect(loaded).toContain("express");
      expect(loaded).toContain("@electric-sql/pglite");
      expect(ON_FIRST_USE.filter((name) => loaded.has(name))).toEqual([]);
    } finally {
      dirs.remove();
    }
  }, 180_000);

  it("on PostgreSQL with no provider file, after answering: no PGlite, no YAML parser, nor the rest", async () => {
    const dirs = serverDirs("startup-packages-pg");
    // The built-in local provider: no file to parse (the built-in definitions come parsed).
    rmSync(join(dirs.configDir, "providers"), { recursive: true, force: true });
    const schema = await createTestSchema();
    try {
      const loaded = await loadedByServer(dirs, { DATABASE_URL: schema.url });
      expect(loaded).toContain("express");
      expect(loaded).toContain("pg");
      const notNow = [...ON_FIRST_USE.filter((name) => name !== "pg" && name !== "pg-boss"), "@electric-sql/pglite", "yaml"];
      expect(notNow.filter((name) => loaded.has(name))).toEqual([]);
    } finally {
      await schema.drop();
      dirs.remove();
    }
  }, 180_000);
});
