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

/**
 * `workers` forked processes, each running file after file (`isolate: false`): a file that opens
 * an engine or a server loaded the engine, express and the contract's validator again in a fresh
 * fork; now once per worker (the server's project alone on this 2-core machine: collect 68 -> 14 s
 * summed, 373 -> 327 CPU-s, 274 -> 236 s wall). Every worker lives to the end of the run
 * (`minWorkers` = `maxWorkers`): vitest 3 ends an idle worker above the minimum with a teardown
 * whose rejection nothing handles, which ends the whole run ("Terminating worker thread") and
 * leaves the other workers running. Vitest takes `isolate` for forks from the root config only,
 * not a project's. A file that changes what another would see (environment, a patched module)
 * puts it back when it ends, as cli.test.ts and local-spawner.test.ts do.
 */
export function sharedForks(workers: number) {
  return { maxWorkers: workers, minWorkers: workers, poolOptions: { forks: { isolate: false } } };
}

/**
 * Bounds, not waits: on two cores beside the other packages' tests a test runs several times
 * slower than alone (CI of 2026-11-28: 1-5 s tests over 30 s, Prism's start over 30 s), and
 * vitest's default of 5 s fails a test that takes 1 s alone. A hook starts engines, sshds and
 * servers, hence its longer bound.
 */
export function loadedBounds(testTimeout = 60_000) {
  return { testTimeout, hookTimeout: 120_000 };
}
