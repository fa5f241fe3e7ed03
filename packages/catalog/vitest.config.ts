import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The scripts' tests run bash and the tools' own commands: on a 2-core machine busy with the
    // other packages' tests (and CI's deployment check beside them), 5 s, vitest's default, is too
    // short for a test that takes 0.1 s alone.
    testTimeout: 60_000,
  },
});
