import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, type BenchwrightProcess } from "../test-support/processes.js";

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");
const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

/** Runs the built `benchwright-server` to its end; a command that does not end within `ms` is killed and says so. */
// A bound, not a wait: a start on a fresh data directory took over 20 s in CI beside the other files.
function runToEnd(args: string[], env: Record<string, string>, ms = 90_000): Promise<{ code: number | null; output: string; killed: boolean }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => (output += t));
  child.stderr.setEncoding("utf8").on("data", (t: string) => (output += t));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, ms);
  return new Promise((done) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code, output, killed });
    }),
  );
}

describe("starting the server", () => {
  let dataDir: string;
  let configDir: string;
  let env: Record<string, string>;
  let first: BenchwrightProcess | undefined;
  let taken: Server;
  let takenPort: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-startup-"));
    configDir = mkdtempSync(join(tmpdir(), "bw-startup-config-"));
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    env = { BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: configDir, DATABASE_URL: "" };
    taken = createServer().listen(0, "127.0.0.1");
    await new Promise((r) => taken.once("listening", r));
    takenPort = (taken.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await first?.stop();
    taken.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  });

  it("on a port in use, exits 1 saying which address is taken and what to set", async () => {
    const other = mkdtempSync(join(tmpdir(), "bw-startup-port-"));
    try {
      const { code, output, killed } = await runToEnd(["serve"], { ...env, BENCHWRIGHT_DATA_DIR: other, PORT: String(takenPort) });
      expect(killed, output).toBe(false);
      expect(code, output).toBe(1);
      expect(output).toContain(`127.0.0.1:${takenPort} is already in use (EADDRINUSE)`);
      expect(output).toMatch(/set PORT/);
      expect(output).not.toMatch(/"msg":"listening"/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses a second server on the same embedded data directory, and leaves the first one working", async () => {
    first = await startProcess("serve", env);
    const { code, output, killed } = await runToEnd(["serve"], env);
    expect(killed, output).toBe(false);
    expect(code, output).toBe(1);
    expect(output).toContain(`The embedded database in ${join(dataDir, "db")} is in use by process ${first.child.pid}`);
    expect(output).toMatch(/BENCHWRIGHT_DATA_DIR/);
    const res = await fetch(`${first.api}/providers/`);
    expect(res.status).toBe(200);
    // Once the first has stopped, the directory is free again.
    expect(await first.stop()).toBe(0);
    first = await startProcess("serve", env);
    // Three servers started one after another: over 30 s in CI beside the other files.
  }, 120_000);

  it.each([["serve"], ["worker"], ["sweep"]])("prints its help for `%s --help` and `-h`, and exits 0 without starting", async (command) => {
    for (const flag of ["--help", "-h"]) {
      const { code, output, killed } = await runToEnd([command, flag], env, 15_000);
      expect(killed, `${command} ${flag} did not end: ${output}`).toBe(false);
      expect(code, output).toBe(0);
      expect(output).toContain("usage: benchwright-server serve | worker | sweep");
      expect(output).not.toMatch(/"msg"/);
    }
  });
});
