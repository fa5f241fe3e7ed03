import { configDefaults, defineConfig } from "vitest/config";
import { BUILT_PACKAGES, loadedBounds, sharedForks, unitTestFiles } from "../../vitest.tiers.js";

// The tests that measure: one compares a benchmark's figures with the same command run directly
// (within 20%), others two threads with one, or CPU-limited hosts' spread. A neighbouring file's
// load on a 2-core machine would skew them, so they run alone, after the rest (`groupOrder`), in one fork; turbo
// runs them after every package's other tests (the `test:measuring` task). existing-vm-steps, once
// here because its real fio and iperf3 runs made neighbours time out, runs beside the other files
// since each of those runs lasts a second.
const MEASURING = ["src/system/existing-vm.test.ts", "src/system/repetitions.test.ts", "src/system/precision-hosts.test.ts"];
const UNIT = unitTestFiles(import.meta.dirname);
const IMAGE = ["src/test-support/pglite-image-setup.ts"];

export default defineConfig({
  test: {
    server: BUILT_PACKAGES,
    // Each file opens a real engine (its database loaded from the run's migrated image) and some
    // run real benchmarks.
    ...loadedBounds(),
    // Most of a file's time is waiting (for sshd, a step's sleep, a poll): more files than cores.
    ...sharedForks(4),
    projects: [
      // `npm run test:fast`: files that start nothing.
      { extends: true, test: { name: "unit", include: UNIT } },
      {
        extends: true,
        test: { name: "server", include: ["src/**/*.test.ts"], exclude: [...configDefaults.exclude, ...UNIT, ...MEASURING], globalSetup: IMAGE },
      },
      {
        extends: true,
        test: { name: "measuring", include: MEASURING, globalSetup: IMAGE, sequence: { groupOrder: 1 }, poolOptions: { forks: { singleFork: true } } },
      },
    ],
  },
});
