import { configDefaults, defineConfig } from "vitest/config";
import { BUILT_PACKAGES, loadedBounds, sharedForks, unitTestFiles } from "../../vitest.tiers.js";

const UNIT = unitTestFiles(import.meta.dirname);
// A test that reads the host's own load (the telemetry of an idle run beside a CPU hog's): the
// neighbouring files' load on a 2-core machine would be in its figures, so it runs alone, after
// every package's other tests (turbo's `test:measuring`), as the server's measuring tests do.
const MEASURING = ["src/telemetry.test.ts"];
const IMAGE = ["src/test-support/pglite-image-setup.ts"];

export default defineConfig({
  test: {
    server: BUILT_PACKAGES,
    // Many engine tests open a database, an sshd or a shell.
    ...loadedBounds(),
    // Most of a file's time is waiting (a shell, sshd, a poll): more files at once than vitest's
    // default of one fewer than the cores (one, on two).
    ...sharedForks(3),
    projects: [
      // `npm run test:fast`: files that start nothing. In worker threads, which start in less CPU
      // than forked processes (67 files: 53 vs 61 CPU-s at a load of 17); a file that starts
      // nothing needs no process of its own.
      { extends: true, test: { name: "unit", include: UNIT, pool: "threads" } },
      {
        extends: true,
        test: {
          name: "engine",
          include: ["src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...UNIT, ...MEASURING],
          // One migrated PGlite per run, which the test stores start from (openTestStore).
          globalSetup: IMAGE,
        },
      },
      {
        extends: true,
        test: { name: "measuring", include: MEASURING, globalSetup: IMAGE, poolOptions: { forks: { singleFork: true } } },
      },
    ],
  },
});
