// `series` and `regressions` on a real server: twelve real runs of a tool of the test's own (its
// speed and version from files), six at about 100 and six at about 80 after a new version.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Change, createClient, type Series } from "@benchwright/sdk";
import { trendToolDefinition } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test-support/cli-process.js";
import { startTestServer, type TestServer } from "../test-support/server.js";

const COMMIT = "3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d";

describe("series and regressions on a real server", () => {
  let server: TestServer;
  let dir: string;
  let series: Series;
  let change: Change;
  const cli = (...args: string[]) => runCli([...args, "--url", server.url]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bw-cli-trend-"));
    chmodSync(dir, 0o755);
    server = await startTestServer();
    const bw = createClient({ baseUrl: server.url });
    mkdirSync(join(server.configDir, "benchmarks"), { recursive: true });
    writeFileSync(join(server.configDir, "benchmarks", "trend.yaml"), trendToolDefinition(dir));
    const session = await bw.createSession({ provider: "local", service: "default" });
    for (const [speed, version] of [
      ...[100, 102, 97, 101, 99, 103].map((s) => [s, "trend 1.0"] as const),
      ...[80, 82, 77, 81, 79, 83].map((s) => [s, "trend 2.0"] as const),
    ]) {
      writeFileSync(join(dir, "speed"), String(speed));
      writeFileSync(join(dir, "version"), version);
      // The new version's runs measured a branch (as a CI's job says it); the first six none.
      const code = version === "trend 2.0" ? { branch: "feature/v2", commit: COMMIT } : {};
      const e = await bw.createExecution(session.id, { tool: "trend", workload: "steady", ...code });
      await bw.prepare(e.id);
      await bw.run(e.id);
    }
    [series] = (await bw.listSeries({ tool: "trend" })) as [Series];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      [change] = (await bw.listSeriesChanges(series.id)) as [Change];
      if (change) break;
    }
    await bw.deleteSession(session.id);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("lists the series and shows one with its points and its change", async () => {
    const list = await cli("series", "--tool", "trend");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${series.id}\\s+trend/steady\\s+speed\\s+local/default\\s+12\\s+83\\s+ops/s\\s+1`));
    const shown = await cli("series", series.id.slice(0, 8), "--baseline", "1-6");
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/baseline\s+points 1-6 \(6\): 100\.333/);
    expect(shown.stdout).toMatch(/vs baseline\s+-19\.9% .*regression/);
    expect(shown.stdout).toMatch(new RegExp(`${change.seq}\\s+\\S+ \\S+\\s+\\d+\\s+1\\s+regression -\\d+\\.\\d%`));
    expect(shown.stdout).toContain(change.id);
  });

  it("shows one branch's points with --branch, each with the code it measured", async () => {
    const shown = await cli("series", series.id, "--branch", "feature/v2");
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Points on branch feature/v2");
    const rows = shown.stdout.split("\n").filter((l) => / feature\/v2 at 3f9c2d1e5a7b\s*$/.test(l));
    expect(rows.map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual([7, 8, 9, 10, 11, 12]);
    // Without --branch every point, those of no branch marked '-'.
    const all = await cli("series", series.id);
    expect(all.stdout).toMatch(/^1\s+.*\s-\s*$/m);
    const none = await cli("series", series.id, "--branch", "main");
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("(no points yet)");
    expect(none.stderr).toContain("no point of this series is on branch main");
  });

  it("lists the open regression, acknowledges it, and then lists none", async () => {
    const open = await cli("regressions");
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toContain(change.id);
    expect(open.stdout).toContain("trend/steady speed on local/default");
    expect(open.stdout).toContain("tool_version: trend 1.0 → trend 2.0");
    const ack = await cli("regressions", "ack", change.id);
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toMatch(/acknowledged\s*$/m);
    const none = await cli("regressions");
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("no open regressions");
    expect((await cli("regressions", "--all")).stdout).toContain(change.id);
    expect((await cli("regressions", "ack", "00000000-0000-4000-8000-000000000000")).code).toBe(2);
  });
});
