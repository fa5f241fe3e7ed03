import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Engine } from "@benchwright/engine";
import { runCli } from "./cli.js";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../config");

describe("the benchwright CLI", () => {
  let dataDir: string;
  const saved = { ...process.env };
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-cli-"));
    const configDir = mkdtempSync(join(tmpdir(), "bw-cli-config-"));
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    Object.assign(process.env, { BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: configDir });
    delete process.env.DATABASE_URL;
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("sweeps every stored cloud configuration and prints the report", async () => {
    const lines: string[] = [];
    // A data dir of its own, new: the sweep is asked to make its database.
    expect(
      await runCli(
        ["sweep", "--dry-run", "--create-database"],
        (l) => lines.push(l),
        () => {},
      ),
    ).toBe(0);
    expect(JSON.parse(lines.join("\n"))).toEqual({ dry_run: true, resources: [] });
  });

  it("says which configurations exist when the one named is not a cloud one", async () => {
    const lines: string[] = [];
    expect(
      await runCli(
        ["sweep", "--provider", "local", "--create-database"],
        (l) => lines.push(l),
        () => {},
      ),
    ).toBe(2);
    expect(lines.join("\n")).toMatch(/unknown_provider: No stored cloud configuration 'local'/);
  });

  it("makes, lists and revokes tokens on the server's database, the token printed once", async () => {
    const lines: string[] = [];
    const say = (l: string) => lines.push(l);
    // A persistent data dir: each command opens the same embedded database, the first one making it.
    const notes: string[] = [];
    const create = ["tokens", "create", "--principal", "ci", "--role", "operator", "--name", "nightly", "--create-database"];
    expect(await runCli(create, say, (l) => notes.push(l))).toBe(0);
    const made = JSON.parse(lines.pop()!) as { id: string; token: string; role: string; revoked: null };
    expect(made).toMatchObject({ role: "operator", revoked: null });
    expect(made.token).toMatch(/^bw_/);
    expect(await runCli(["tokens", "list"], say, (l) => notes.push(l))).toBe(0);
    const listed = lines.pop()!;
    // Each says which database it opened: the first made it, the next found it.
    expect(notes).toEqual([
      `database: the embedded database ${join(dataDir, "db")} (BENCHWRIGHT_DATA_DIR), made now`,
      `database: the embedded database ${join(dataDir, "db")} (BENCHWRIGHT_DATA_DIR)`,
    ]);
    expect(JSON.parse(listed)).toEqual([expect.objectContaining({ id: made.id, principal: "ci", name: "nightly" })]);
    expect(listed).not.toContain(made.token);
    expect(await runCli(["tokens", "revoke", made.id], say)).toBe(0);
    expect(await runCli(["tokens", "list"], say)).toBe(0);
    expect((JSON.parse(lines.pop()!) as Array<{ revoked: string | null }>)[0].revoked).toMatch(/^\d{4}-/);
    expect(await runCli(["tokens", "create", "--principal", "x", "--role", "root"], say)).toBe(2);
    expect(lines.pop()).toContain("--role is required");
    expect(await runCli(["tokens", "revoke", "00000000-0000-4000-8000-000000000000"], say)).toBe(2);
    expect(lines.pop()).toContain("not_found");
    // The names the server gives principals itself, and an expiry already past: refused, nothing made.
    expect(await runCli(["tokens", "create", "--principal", "anonymous", "--role", "admin"], say)).toBe(2);
    expect(lines.pop()).toBe("validation_failed: /body/principal is a name the server gives principals itself (bootstrap, anonymous); name another");
    expect(await runCli(["tokens", "create", "--principal", "ci", "--role", "viewer", "--expires", "2020-01-01T00:00:00Z"], say)).toBe(2);
    expect(lines.pop()).toMatch(/^validation_failed: \/body\/expires is not in the future/);
    expect(await runCli(["tokens", "list"], say)).toBe(0);
    expect(JSON.parse(lines.pop()!)).toHaveLength(1);
    // Eight commands, each opening the embedded database in this process (the first makes it):
    // over 30 s in CI beside the other server files and the CLI package's tests.
  }, 120_000);

  it("refuses tokens and sweep where there is no database, saying which it looked for, and makes none", async () => {
    for (const command of [
      ["tokens", "create", "--principal", "ci", "--role", "admin"],
      ["tokens", "list"],
      ["sweep", "--dry-run"],
    ]) {
      const lines: string[] = [];
      expect(
        await runCli(
          command,
          (l) => lines.push(l),
          () => {},
        ),
        command.join(" "),
      ).toBe(2);
      expect(lines.join("\n")).toContain(`no database: the embedded database ${join(dataDir, "db")} (BENCHWRIGHT_DATA_DIR) does not exist`);
      expect(lines.join("\n")).toContain("--create-database");
      expect(readdirSync(dataDir), command.join(" ")).toEqual([]);
    }
  });

  it("says to use the API when a running server holds the embedded database, instead of failing with a stack", async () => {
    const server = await Engine.open({ dataDir, configDir: process.env.BENCHWRIGHT_CONFIG_DIR!, work: false });
    try {
      for (const command of [
        ["tokens", "list"],
        ["sweep", "--dry-run"],
      ]) {
        const lines: string[] = [];
        expect(await runCli(command, (l) => lines.push(l))).toBe(1);
        expect(lines.join("\n")).toMatch(/is in use by process \d+.*use its API instead \(tokens: POST, GET and DELETE \/api\/v1\/admin\/tokens\/; sweep/);
      }
    } finally {
      await server.close();
    }
    // Once it has stopped, the command works.
    expect(await runCli(["tokens", "list"], () => {})).toBe(0);
  });

  it("refuses unknown commands and options with its usage", async () => {
    const lines: string[] = [];
    expect(await runCli(["sweep", "--everything"], (l) => lines.push(l))).toBe(2);
    expect(await runCli(["server"], (l) => lines.push(l))).toBe(2);
    expect(lines.join("\n")).toContain("usage: benchwright-server serve | worker | sweep");
  });

  it("names itself benchwright-server in its help, as it is installed, not the client's benchwright", async () => {
    const lines: string[] = [];
    expect(await runCli(["--help"], (l) => lines.push(l))).toBe(0);
    expect(lines.join("\n")).toMatch(/^usage: benchwright-server serve \| worker \| sweep/);
    expect(lines.join("\n")).not.toMatch(/\bbenchwright (serve|worker|sweep|tokens)\b/);
  });
});
