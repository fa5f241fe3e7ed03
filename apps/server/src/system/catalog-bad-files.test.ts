import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "@benchwright/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../process/server.js";
import { captureLog } from "../test-support/captured-log.js";
import { dropDefinition } from "../test-support/fixture.js";

// A tester found that one dangling symlink in config/benchmarks/ kept the server from
// starting: every bad file there must be logged and left out, and the rest must serve.
describe("a config dir with bad benchmark files", () => {
  let server: RunningServer;
  let dataDir: string;
  let configDir: string;
  const captured = captureLog();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-data-"));
    configDir = mkdtempSync(join(tmpdir(), "bw-config-"));
    const benchmarks = join(configDir, "benchmarks");
    mkdirSync(benchmarks);
    dropDefinition(configDir, { id: "extra", workload: "once", run: "echo 'BW_METRIC one 1 unit'" });
    symlinkSync(join(configDir, "removed-long-ago.yaml"), join(benchmarks, "dangling.yaml"));
    mkdirSync(join(benchmarks, "folder.yaml"));
    writeFileSync(join(benchmarks, "typo.yaml"), "id: [unclosed\n");
    server = await startServer({ host: "127.0.0.1", port: 0, dataDir, configDir, insecure: false }, captured.log, {
      validateResponses: true,
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  });

  it("starts, and lists the built-ins and the good extra file", async () => {
    const res = await fetch(`${server.url}/api/v1/benchmarks/`);
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as Array<{ id: string }>).map((b) => b.id).sort();
    const builtins = loadCatalog()
      .tools()
      .map((t) => t.id);
    expect(builtins.length).toBeGreaterThanOrEqual(20);
    expect(ids).toEqual([...builtins, "extra"].sort());
    const extra = await fetch(`${server.url}/api/v1/benchmarks/extra`);
    expect(extra.status).toBe(200);
    expect(((await extra.json()) as { workloads: Array<{ id: string }> }).workloads.map((w) => w.id)).toEqual(["once"]);
  });

  it("logs each bad file by name", () => {
    const skipped = captured
      .entries()
      .map((e) => String(e.msg))
      .filter((l) => l.startsWith("benchmark definition skipped"));
    expect(skipped.join("\n")).toMatch(/dangling\.yaml: is a symbolic link to nothing/);
    expect(skipped.join("\n")).toMatch(/folder\.yaml: is not a regular file/);
    expect(skipped.join("\n")).toMatch(/typo\.yaml: not valid YAML/);
  });
});
