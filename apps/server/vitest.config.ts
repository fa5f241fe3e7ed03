import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Each file opens a real engine (PGlite starts in seconds) and some run real benchmarks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One file at a time: the SSH test compares a benchmark's figures with the same command
    // run directly, which a neighbouring file's load on a 2-core machine would skew.
    fileParallelism: false,
  },
});
