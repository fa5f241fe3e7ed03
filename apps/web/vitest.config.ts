import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
    // A browser, Prism and a real engine on a loaded 2-core machine: generous limits, one file at a time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // One migrated PGlite per run, which each real server's engine starts from (test/real-server.ts).
    globalSetup: ["./test/pglite-image-setup.ts"],
  },
});
