import { defineConfig } from "vitest/config";
import { BUILT_PACKAGES, loadedBounds, sharedForks } from "../../vitest.tiers.js";

export default defineConfig({
  test: {
    server: BUILT_PACKAGES,
    include: ["src/**/*.test.ts"],
    // Each file starts a real server (PGlite starts in seconds) and runs the built command as a process.
    ...loadedBounds(120_000),
    // Most of a file's time is waiting for the command's processes and its server's steps: two at
    // once (alone: 88 s one file at a time, 46 s two at once).
    ...sharedForks(2),
    // One migrated PGlite per run, which each test server's database starts from (test-support/server.ts).
    globalSetup: ["src/test-support/pglite-image-setup.ts"],
  },
});
