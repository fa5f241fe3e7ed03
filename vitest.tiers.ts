import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * What a test file starts when it names one of these: an engine or database, an sshd, a server
 * or browser process (`serve(`: a server on an engine), a fresh node (`loadedAfter`). A file that
 * names none runs in the fast tier (`npm run test:fast`).
 */
const STARTS_SOMETHING =
  /openFixture|startSshd|Engine\.open|openTestStore|openDb\(|openPglite|PGlite|createTestSchema|serversOnPostgres|startServer|child_process|spawn|chromium|playwright|Prism|openLoopbackSession|startProcess|startProxiedServer|loadedAfter|\bserve\(/;

/** The test files under `dir`/src (paths relative to `dir`) that start nothing: the package's unit tier. */
export function unitTestFiles(dir: string): string[] {
  const src = join(dir, "src");
  return readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .filter((file) => !STARTS_SOMETHING.test(readFileSync(join(src, file), "utf8")))
    .map((file) => relative(dir, join(src, file)));
}

/**
 * The workspace packages' built output, imported by Node itself rather than through vitest's
 * transform: each test file's fork loaded every module of the engine (and of the server, for the
 * CLI's tests) through the transform's per-module round trips; natively it takes about half the
 * CPU (two server files: 41 vs 48 CPU-s). Their sources are not transformed anyway (no mocks).
 */
export const BUILT_PACKAGES = { deps: { external: [/\/(?:packages|apps)\/[^/]+\/dist\//] } };
