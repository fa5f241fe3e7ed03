import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    globalSetup: ["./test/prism-setup.ts"],
    testTimeout: 60_000,
  },
});
