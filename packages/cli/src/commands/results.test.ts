import { parse } from "csv-parse/sync";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test-support/cli-process.js";
import { startTestServer, type TestServer } from "../test-support/server.js";

const EXPORT_COLUMNS = [
  "session_id",
  "provider",
  "service_type",
  "machine",
  "machine_ip",
  "tool",
  "workload",
  "parameters",
  "repetition",
  "metric",
  "value",
  "unit",
  "tags",
  "execution_id",
  "attempt",
  "started",
];

const COMMIT = "3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d";

describe("benchwright ls, show, compare and export, against a real server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  const ids: string[] = [];
  let failedId: string;

  beforeAll(async () => {
    server = await startTestServer();
    env = { BENCHWRIGHT_URL: server.url };
    for (const [i, target] of ["idle/idle0", "idle/idle0", "idle/failing"].entries()) {
      // The first run as a GitHub Actions job runs it: it records the job's branch and commit.
      const ci = i === 0 ? { GITHUB_ACTIONS: "true", GITHUB_REF_NAME: "feature/a", GITHUB_SHA: COMMIT } : {};
      const { stdout } = await runCli(["run", target, "--provider", "local", "--json"], { ...env, ...ci });
      const id = JSON.parse(stdout).execution.id as string;
      if (target === "idle/failing") failedId = id;
      else ids.push(id);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("ls lists the executions with their ids, filtered; sessions too", async () => {
    const all = await runCli(["ls"], env);
    expect(all.code, all.stderr).toBe(0);
    for (const id of [...ids, failedId]) expect(all.stdout).toContain(id);
    expect(all.stdout).toMatch(/ID\s+TOOL\s+WORKLOAD\s+STATE/);

    const failed = await runCli(["ls", "executions", "--state", "run_failed", "--json"], env);
    expect(JSON.parse(failed.stdout).map((e: { id: string }) => e.id)).toEqual([failedId]);

    const one = await runCli(["ls", "--limit", "1"], env);
    expect(one.stdout).toContain(ids[0]);
    expect(one.stdout).not.toContain(ids[1]);
    expect(one.stderr).toMatch(/more executions match/);

    // Every run deleted its session.
    const sessions = await runCli(["ls", "sessions", "--json"], env);
    expect(JSON.parse(sessions.stdout)).toEqual([]);
    // None open: it says it lists open ones, and how to see the deleted.
    const open = await runCli(["ls", "sessions"], env);
    expect(open.stderr).toMatch(/no open sessions match \(without --state, ls lists open sessions; --state deleted/);
    expect((await runCli(["ls", "sessions", "--state", "deleted"], env)).stdout).toMatch(/deleted/);
    expect((await runCli(["ls", "sessions", "--tool", "idle"], env)).code).toBe(2);
    expect((await runCli(["ls", "--state", "sleeping"], env)).code).toBe(2);
  });

  it("show prints the execution, its steps and its metrics", async () => {
    const { code, stdout } = await runCli(["show", ids[0]], env);
    expect(code).toBe(0);
    expect(stdout).toContain(ids[0]);
    expect(stdout).toMatch(/benchmark\s+idle\/idle0/);
    // Its session was deleted by the run: the server answers it 410, and show says when.
    expect(stdout).toMatch(/session\s+[0-9a-f-]{36} \(deleted \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}; its results stay\)/);
    expect(stdout).toMatch(/run\s+1\s+succeeded/);
    expect(stdout).toMatch(/idle_seconds/);
    // What produced them: idle installs nothing; the definition and the script it ran, by digest.
    expect(stdout).toMatch(/provenance\s+installed: nothing recorded/);
    expect(stdout).toMatch(/definition: sha256:[0-9a-f]{64}/);
    expect(stdout).toMatch(/script on local: sha256:[0-9a-f]{64}/);
    expect(JSON.parse((await runCli(["show", ids[0], "--json"], env)).stdout)).toMatchObject({ id: ids[0], branch: "feature/a", commit: COMMIT });
    // The code it measured, as the CI's job said it; a run outside CI says none.
    expect(stdout).toMatch(new RegExp(`code\\s+feature/a at ${COMMIT}`));
    expect((await runCli(["show", ids[1]], env)).stdout).not.toMatch(/^code\s/m);
    const missing = await runCli(["show", "00000000-0000-4000-8000-000000000000"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/not_found/);
  });

  it("show and compare take an id's first 8 characters, as the dashboard shows it", async () => {
    const short = await runCli(["show", ids[0].slice(0, 8), "--json"], env);
    expect(short.code, short.stderr).toBe(0);
    expect(JSON.parse(short.stdout).id).toBe(ids[0]);
    const compared = await runCli(["compare", ids[0].slice(0, 8), ids[1].slice(0, 13), "--baseline", ids[1].slice(0, 8), "--json"], env);
    expect(compared.code, compared.stderr).toBe(0);
    expect(JSON.parse(compared.stdout)).toMatchObject({ baseline: ids[1], executions: [{ id: ids[0] }, { id: ids[1] }] });
    const none = await runCli(["show", ids.some((id) => id.startsWith("00000000")) ? "ffffffff" : "00000000"], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no execution's id starts with/);
  });

  it("compare shows the server's comparison: each execution's mean and interval, its ratio to the baseline and a verdict", async () => {
    const { code, stdout, stderr } = await runCli(["compare", ids[0], ids[1]], env);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`A = ${ids[0]}`);
    expect(stdout).toMatch(/baseline/);
    expect(stdout).toMatch(/METRIC\s+TAGS\s+UNIT\s+A: idle\/idle0\s+B: idle\/idle0/);
    // One run each: one value, so no interval and no verdict but unknown.
    expect(stdout).toMatch(/idle_seconds\s+s \(lower better\)\s+[\d.]+ \(n=1\)\s+[\d.]+ \(n=1\) x[\d.]+ unknown/);
    const json = JSON.parse((await runCli(["compare", ids[0], ids[1], "--json", "--baseline", ids[1]], env)).stdout);
    expect(json.baseline).toBe(ids[1]);
    expect(json.metrics).toEqual([
      expect.objectContaining({
        name: "idle_seconds",
        figures: [expect.objectContaining({ n: 1 }), expect.objectContaining({ verdict: "baseline" })],
      }),
    ]);
    expect((await runCli(["compare", ids[0]], env)).code).toBe(2);
    expect((await runCli(["compare", ids[0], ids[1], "--confidence", "2"], env)).code).toBe(2);
  });

  it("export --format csv gives a CSV a parser reads, one row per metric of each successful run", async () => {
    const { code, stdout, stderr } = await runCli(["export", "--format", "csv"], env);
    expect(code, stderr).toBe(0);
    const rows = parse(stdout, { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0])).toEqual(EXPORT_COLUMNS);
    expect(rows.map((r) => r.execution_id).sort()).toEqual([...ids].sort());
    expect(rows[0]).toMatchObject({
      provider: "local",
      service_type: "default",
      tool: "idle",
      workload: "idle0",
      repetition: "1",
      metric: "idle_seconds",
      unit: "s",
    });
    expect(JSON.parse(rows[0].parameters)).toEqual({});
    expect(JSON.parse(rows[0].tags)).toEqual({});
  });

  it("export writes JSON Lines to a file with -o, filtered", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-cli-export-"));
    try {
      const file = join(dir, "m.jsonl");
      const { code } = await runCli(
        ["export", "--format", "jsonl", "--session", JSON.parse((await runCli(["show", ids[1], "--json"], env)).stdout).session_id, "-o", file],
        env,
      );
      expect(code).toBe(0);
      const lines = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines).toEqual([expect.objectContaining({ execution_id: ids[1], metric: "idle_seconds" })]);
      expect((await runCli(["export", "--format", "xml"], env)).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
