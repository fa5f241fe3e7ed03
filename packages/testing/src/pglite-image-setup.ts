import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import "./provided-context.js";

// One migrated PGlite data dir per test run, shared by the engine's and the server's tests: each
// binds `pgliteImageSetup` to its own `migratedPgliteImage` (this package cannot import the
// engine), and their databases read it with `testPgliteImage` (`@benchwright/testing/pglite-image`).
// Subpaths of their own: the bench scripts, which import the package's index, load no vitest; and
// this one, a global setup, must not import vitest's runtime (it runs outside any test).

/**
 * A vitest global setup that writes `make`'s image (a migrated PGlite data dir) to a file once per
 * run, which every test file's database then starts from (`testPgliteImage`): loading it takes a
 * fraction of initdb and migrating.
 */
export function pgliteImageSetup(make: () => Promise<Blob>): (project: TestProject) => Promise<() => void> {
  return async (project) => {
    const dir = mkdtempSync(join(tmpdir(), "bw-pglite-image-"));
    const file = join(dir, "image.tar");
    writeFileSync(file, Buffer.from(await (await make()).arrayBuffer()));
    project.provide("pgliteImage", file);
    return () => rmSync(dir, { recursive: true, force: true });
  };
}
