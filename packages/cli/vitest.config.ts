import { defineConfig } from "vitest/config";
import { BUILT_PACKAGES, sharedForks } from "../../vitest.tiers.js";

export default defineConfig({
  test: {
    server: BUILT_PACKAGES,
    include: ["src/**/*.test.ts"],
    // Each file starts a real server (PGlite starts in seconds) and runs the built command as a process.
    // Bounds, not waits: on two cores beside the other packages' tests a test runs several times
    // slower than alone (CI of 2026-11-28: 1-5 s tests over 30 s, Prism's start over 30 s).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Most of a file's time is waiting for the command's processes and its server's steps: two at
    // once (alone: 88 s one file at a time, 46 s two at once).
    ...sharedForks(2),
    // One migrated PGlite per run, which each test server's database starts from (test-support/server.ts).
    globalSetup: ["src/test-support/pglite-image-setup.ts"],
  },
});
