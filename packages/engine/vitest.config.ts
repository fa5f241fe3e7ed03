import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Many engine tests open a database, an sshd or a shell: on a 2-core machine busy with the
    // rest of the suite, 5 s (vitest's default) is too short for a test that takes 1 s alone.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
