import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./test-support/cli-process.js";

describe("the benchwright command", () => {
  it("prints its help and exit codes, and its version", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["run", "ls", "show", "compare", "export", "serve", "worker", "sweep", "tokens"]) expect(help.stdout).toContain(command);
    expect(help.stdout).toMatch(/Exit codes: 0 done; 1 a step failed; 2 usage error/);
    expect((await runCli(["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("exits 2 on a usage error", async () => {
    expect((await runCli(["bogus"])).code).toBe(2);
    expect((await runCli(["run", "idle/idle0"])).stderr).toMatch(/--provider/);
    expect((await runCli(["run", "idle/idle0"])).code).toBe(2);
    expect((await runCli(["ls", "--limit", "none"])).code).toBe(2);
  });

  it("exits 3 when the server cannot be reached, saying where it looked", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await runCli(["ls", "--url", url]);
    expect(code).toBe(3);
    expect(stderr).toContain(`cannot reach the server at ${url}: ECONNREFUSED`);
    const fromEnv = await runCli(["show", "x"], { BENCHWRIGHT_URL: url });
    expect(fromEnv.code).toBe(3);
  });

  it("hands serve, worker and sweep to the server's own commands", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-cli-sweep-"));
    try {
      const env = {
        BENCHWRIGHT_DATA_DIR: dataDir,
        BENCHWRIGHT_CONFIG_DIR: resolve(import.meta.dirname, "../../../config"),
        DATABASE_URL: undefined,
        LOG_LEVEL: "silent",
      };
      // A new data dir: the sweep is asked to make its database (it refuses to otherwise).
      const { code, stdout, stderr } = await runCli(["sweep", "--dry-run", "--create-database"], env);
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toEqual({ dry_run: true, resources: [] });
      // The top-level help advertises `serve --help`: it prints the server's usage, and starts nothing.
      const help = await runCli(["serve", "--help"], env);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain("usage: benchwright-server serve | worker | sweep");
      const wrong = await runCli(["sweep", "--everything"], env);
      expect(wrong.code).toBe(2);
      expect(wrong.stdout).toContain("usage: benchwright-server serve | worker | sweep");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("without the server beside it, says how to install it", async () => {
    // The command as installed on its own: its build and every dependency but @benchwright/server.
    const dir = mkdtempSync(join(tmpdir(), "bw-cli-alone-"));
    try {
      const root = resolve(import.meta.dirname, "../../../node_modules");
      cpSync(resolve(import.meta.dirname, "../dist"), join(dir, "dist"), { recursive: true });
      cpSync(resolve(import.meta.dirname, "../package.json"), join(dir, "package.json"));
      mkdirSync(join(dir, "node_modules", "@benchwright"), { recursive: true });
      for (const name of readdirSync(root)) if (name !== "@benchwright") symlinkSync(join(root, name), join(dir, "node_modules", name));
      const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, "../package.json"), "utf8")) as { dependencies: Record<string, string> };
      for (const name of Object.keys(manifest.dependencies).filter((n) => n.startsWith("@benchwright/"))) {
        symlinkSync(join(root, name), join(dir, "node_modules", name));
      }
      const alone = spawnSync(process.execPath, [join(dir, "dist", "bin.js"), "serve"], { encoding: "utf8" });
      expect(alone.status).toBe(2);
      expect(alone.stderr).toContain("the server is not installed beside this command");
      expect(alone.stderr).toContain("npm install -g @benchwright/server");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A loopback port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}
