import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { loadedAfter } from "@benchwright/testing";
import "@benchwright/testing/pglite-image";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist");

// Built code: the server process as it runs. node-postgres and pg-boss cost ~0.1 s at start.
describe("the embedded default", () => {
  it("opens, works and closes without loading node-postgres or pg-boss (built engine)", () => {
    // The probe sees them when they are loaded...
    expect(loadedAfter(DIST, `await import("./store/postgres-db.js");`, "/node_modules/pg/")).toBe(true);
    expect(loadedAfter(DIST, `await import("./queue/pg-boss-queue.js");`, "/node_modules/pg-boss/")).toBe(true);
    // ...and an engine on PGlite, through a session, does not. It starts from the run's migrated
    // image when there is one (the file's path is handed down): an initdb is not what is looked at.
    const image = JSON.stringify(inject("pgliteImage") ?? null);
    const script = `
      import { mkdtempSync, readFileSync } from "node:fs";
      import { tmpdir } from "node:os";
      import { join } from "node:path";
      const { Engine } = await import("./index.js");
      const dir = mkdtempSync(join(tmpdir(), "bw-lazy-pg-"));
      const image = ${image};
      const pgliteImage = image ? new Blob([readFileSync(image)]) : undefined;
      const engine = await Engine.open({ dataDir: dir, configDir: dir, inMemory: true, pgliteImage });
      await engine.listSessions();
      await engine.close();
    `;
    expect(loadedAfter(DIST, script, "/node_modules/pg/")).toBe(false);
    expect(loadedAfter(DIST, script, "/node_modules/pg-boss/")).toBe(false);
  }, 180_000);
});
