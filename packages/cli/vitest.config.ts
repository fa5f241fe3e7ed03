import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Each file starts a real server (PGlite starts in seconds) and runs the built command as a process.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    // One migrated PGlite per run, which each test server's database starts from (test-support/server.ts).
    globalSetup: ["src/test-support/pglite-image-setup.ts"],
  },
});
