import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { captureLog } from "../test-support/captured-log.js";
import { serve } from "./processes.js";
import { readConfig } from "./config.js";
import { warnWithoutProviders } from "./no-providers.js";

describe("a server started without provider configurations", () => {
  const dirs: string[] = [];
  const dir = (prefix: string) => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** `serve` as the command starts it, on a loopback port, with `configDir`; its log lines. */
  async function start(configDir: string, env: Record<string, string> = {}) {
    const captured = captureLog("info");
    const config = readConfig({ BENCHWRIGHT_DATA_DIR: dir("bw-noprov-data-"), BENCHWRIGHT_CONFIG_DIR: configDir, PORT: "0", ...env }, []);
    const running = await serve(config, captured.log);
    await running.close();
    return captured.entries();
  }

  it("has the built-in local configuration, and says so at start", async () => {
    const empty = dir("bw-noprov-config-");
    const entries = await start(empty);
    expect(entries.filter((e) => e.level === "warn" || e.level === 40)).toEqual([]);
    expect(entries.map((e) => String(e.msg))).toContain("provider configurations: local (built in)");
  });

  it("names where each configuration comes from", async () => {
    const configDir = dir("bw-noprov-config-");
    mkdirSync(join(configDir, "providers"));
    writeFileSync(join(configDir, "providers", "lab.yaml"), "provider: {class: local}\nbench: {}\n");
    const entries = await start(configDir);
    expect(entries.map((e) => String(e.msg))).toContain(`provider configurations: lab (file in ${join(configDir, "providers")})`);
  });

  it("warns at start without the built-in one, naming the folder it looked in", async () => {
    const empty = dir("bw-noprov-config-");
    const warned = (await start(empty, { BENCHWRIGHT_BUILTIN_LOCAL: "false" })).filter((e) => e.level === "warn" || e.level === 40);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ configDir: empty, looked: join(empty, "providers") });
    expect(String(warned[0].msg)).toContain(`no provider configuration in ${join(empty, "providers")}`);
    expect(String(warned[0].msg)).toContain("BENCHWRIGHT_CONFIG_DIR");
  });

  it("says nothing when there is one", () => {
    const captured = captureLog("info");
    expect(warnWithoutProviders([{ name: "local" }], "/etc/benchwright", captured.log)).toBe(false);
    expect(captured.raw).toEqual([]);
  });
});
