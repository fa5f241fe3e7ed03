import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serverDirs } from "@benchwright/testing";
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

// Issue 36: a started server loads what it serves, and the rest when first used (dynamic import).
describe("what a started server has loaded", () => {
  it("on the embedded database, after answering: no cloud SDK, no SSH, no PostgreSQL client, no chart renderer", async () => {
    const dirs = serverDirs("startup-packages");
    const file = join(dirs.dataDir, "loaded-modules.txt");
    try {
      const server = await startProcess(
        "serve",
        { BENCHWRIGHT_DATA_DIR: dirs.dataDir, BENCHWRIGHT_CONFIG_DIR: dirs.configDir, LOADED_MODULES_FILE: file, BENCHWRIGHT_API_TOKEN: "" },
        ["--import", HOOK],
      );
      try {
        expect((await fetch(`${server.api}/benchmarks/`)).status).toBe(200);
      } finally {
        await server.stop();
      }
      const loaded = packagesOf(readFileSync(file, "utf8"));
      // What it does load, so that an empty list (a hook that saw nothing) cannot pass.
      expect(loaded).toContain("express");
      expect(loaded).toContain("@electric-sql/pglite");
      expect(ON_FIRST_USE.filter((name) => loaded.has(name))).toEqual([]);
    } finally {
      dirs.remove();
    }
  }, 60_000);
});
