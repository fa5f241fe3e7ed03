import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@benchwright/sdk";
import { runCli, startCliInTerminal } from "../test-support/cli-process.js";
import { startTestServer, type TestServer } from "../test-support/server.js";

const GOOD = `
targets:
  - { label: here, provider: local, service: "*" }
benchmarks:
  - tool: sysbench
    workload: threads
    params: { threads: [1, 4, 16], duration: [5, 10] }
  - { tool: idle, workload: idle0 }
`;
// Two targets on this host, two cells of a quick benchmark, each measured twice.
const QUICK = `
targets:
  - { label: first, provider: local, service: default }
  - { label: second, provider: local, service: default }
benchmarks:
  - { tool: idle, workload: idle5, params: { seconds: [0, 0.05] } }
repetitions: { count: 2 }
`;
// Long enough to be cancelled while it runs.
const LONG = `
targets:
  - { label: here, provider: local, service: default }
benchmarks:
  - { tool: idle, workload: idle30 }
`;
const BAD = `
targets:
  - { label: here, provider: nowhere }
benchmarks:
  - { tool: sysbench, workload: threads, params: { threads: [] } }
`;

const COMMIT = "3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d";

describe("benchwright plan validate|create|run|report, against a real server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer();
    env = { BENCHWRIGHT_URL: server.url };
    dir = mkdtempSync(join(tmpdir(), "bw-plan-"));
    writeFileSync(join(dir, "good.yaml"), GOOD);
    writeFileSync(join(dir, "bad.yaml"), BAD);
    writeFileSync(join(dir, "quick.yaml"), QUICK);
    writeFileSync(join(dir, "long.yaml"), LONG);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("validates a plan: its targets, cells and executions, and nothing stored", async () => {
    const { code, stdout } = await runCli(["plan", "validate", join(dir, "good.yaml")], env);
    expect(code).toBe(0);
    expect(stdout).toContain("here/default (baseline)");
    expect(stdout).toContain("threads=[1, 4, 16] duration=[5, 10]");
    expect(stdout).toContain("1 target × 7 cells = 7 executions");
    expect(stdout).toContain("not stored");
    expect(JSON.parse((await runCli(["plan", "create", join(dir, "good.yaml"), "--json"], env)).stdout)).toMatchObject({ executions: 7 });
  });

  it("lists every problem of a bad plan and exits as a usage error", async () => {
    const { code, stderr } = await runCli(["plan", "create", join(dir, "bad.yaml")], env);
    expect(code).toBe(2);
    expect(stderr).toContain("/body/targets/0/provider:");
    expect(stderr).toContain("/body/benchmarks/0/params/threads: is an empty list");
  });

  it("runs a plan to its end: the matrix of its cells, the ranking, then the report in each format", async () => {
    // Run as a GitHub Actions job on a pull request runs it: the run records the branch and commit.
    const ci = { GITHUB_ACTIONS: "true", GITHUB_HEAD_REF: "feature/p", GITHUB_REF_NAME: "12/merge", GITHUB_SHA: COMMIT };
    const { code, stdout, stderr } = await runCli(["plan", "run", join(dir, "quick.yaml")], { ...env, ...ci });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`Code measured: feature/p at ${COMMIT}`);
    expect(stdout).toMatch(/^first\s+✔✔$/m);
    expect(stdout).toMatch(/^second\s+✔✔$/m);
    expect(stdout).toContain("completed: 4/4 done");
    expect(stdout).toMatch(/RANK\s+TARGET\s+GEOMEAN vs BASELINE/);
    expect(stdout).toMatch(/^\d\s+first \(baseline\)\s+1x/m);
    const runId = /benchwright plan report ([0-9a-f-]{36})/.exec(stdout)![1]!;
    const bw = createClient({ baseUrl: server.url });
    const plan = (await bw.listPlans()).at(-1)!;
    expect((await bw.getPlanRun(plan.id, runId)).state).toBe("completed");
    // Its sessions were deleted at the end.
    expect(await bw.listSessions()).toEqual([]);

    // The run's first 8 characters are enough, as the dashboard shows ids.
    const html = await runCli(["plan", "report", runId.slice(0, 8), "--format", "html", "-o", join(dir, "report.html")], env);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(join(dir, "report.html"), "utf8");
    expect(page).toContain("<svg");
    expect(page).not.toMatch(/(src|href)="https?:/);
    const csv = await runCli(["plan", "report", `${plan.id}/${runId}`, "--format", "csv"], env);
    expect(csv.stdout.split("\r\n")[0]).toContain("target");
    const json = JSON.parse((await runCli(["plan", "report", runId, "--format", "json"], env)).stdout);
    expect(json.targets.map((t: { target: string }) => t.target).sort()).toEqual(["first", "second"]);
    const text = await runCli(["plan", "report", runId], env);
    expect(text.stdout).toMatch(/RANK\s+TARGET/);
    expect(text.stdout).toMatch(new RegExp(`^Code measured: feature/p at ${COMMIT}$`, "m"));
    expect((await runCli(["plan", "report", "ffffffff"], env)).code).toBe(2);
  });

  it("cancels the run on Ctrl-C typed in a terminal: its sessions deleted, exit 130", async () => {
    const cli = startCliInTerminal(["plan", "run", join(dir, "long.yaml")], env);
    // The live matrix shows the cell running once its run step has begun.
    await cli.waitForStderr(/here\s+▶/, 60_000);
    cli.child.stdin!.write("\x03");
    const { code, stderr } = await cli.exited;
    expect(stderr).toContain("cancelling the run");
    expect(code).toBe(130);
    const bw = createClient({ baseUrl: server.url });
    const plan = (await bw.listPlans()).at(-1)!;
    const [run] = await bw.listPlanRuns(plan.id);
    expect(run!.state).toBe("cancelled");
    expect(run!.cells[0]!.state).toBe("cancelled");
    expect(await bw.listSessions()).toEqual([]);
  }, 90_000);
});
