import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { migratedPgliteImage } from "../store/pglite-db.js";

/**
 * Vitest global setup: one migrated PGlite data dir per run, written to a file that every test
 * file's stores start from (`testPgliteImage`): loading it takes a fraction of initdb and migrating.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "bw-pglite-image-"));
  const file = join(dir, "image.tar");
  writeFileSync(file, Buffer.from(await (await migratedPgliteImage()).arrayBuffer()));
  project.provide("pgliteImage", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
