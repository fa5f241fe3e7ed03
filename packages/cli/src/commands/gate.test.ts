// Issue 39, acceptance 1, 2 and 4: a CI job (test/fixtures/ci/github-job.sh) with GitHub Actions'
// environment gates its benchmark on a real server: nothing changed exits 0, a 10% slowdown
// exits 1 with a Markdown report naming the metric, ratio and interval, an inconclusive metric
// exits 4; a feature branch's first run is compared with main's history; the JUnit report is
// valid against Jenkins' JUnit schema (xmllint, libxml2-utils) with one failure per worse cell.
import { execFile, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient } from "@benchwright/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test-support/cli-process.js";
import { startTestServer, type TestServer } from "../test-support/server.js";

const here = dirname(fileURLToPath(import.meta.url));
const JOB = resolve(here, "../../test/fixtures/ci/github-job.sh");
const XSD = resolve(here, "../../test/fixtures/junit/junit-10.xsd");
const BIN = resolve(here, "../../dist/bin.js");

interface JobRun {
  code: number | null;
  stdout: string;
  stderr: string;
  report: string;
  summary: string;
  ingestId: string;
  /** The commit the job's GITHUB_SHA named. */
  sha: string;
}

// One server for every job of this file.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** Runs a job's script as GitHub would, in `workspace`: on a push to `ref`, or on a pull request from `head` into `base`. */
async function githubJob(
  script: string,
  workspace: string,
  git: { ref?: string; head?: string; base?: string },
  extra: Record<string, string>,
): Promise<JobRun> {
  const summary = join(workspace, "summary.md");
  const report = join(workspace, "report.md");
  writeFileSync(summary, "");
  rmSync(report, { force: true });
  const sha = `${Math.random().toString(16).slice(2).padEnd(12, "0")}${"0".repeat(28)}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    WORKSPACE: workspace,
    BENCHWRIGHT_BIN: BIN,
    BENCHWRIGHT_URL: server.url,
    GITHUB_ACTIONS: "true",
    GITHUB_SHA: sha,
    GITHUB_REF_NAME: git.ref ?? "42/merge",
    GITHUB_HEAD_REF: git.head ?? "",
    GITHUB_BASE_REF: git.base ?? "",
    GITHUB_STEP_SUMMARY: summary,
    ...extra,
  };
  delete env.BENCHWRIGHT_API_TOKEN;
  const child = spawn("bash", [script], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const code = await new Promise<number | null>((r) => child.on("close", r));
  const ingestId = /ingest ([0-9a-f-]{36})/.exec(stderr)?.[1] ?? "";
  return { code, stdout, stderr, report: existsSync(report) ? readFileSync(report, "utf8") : "", summary: readFileSync(summary, "utf8"), ingestId, sha };
}

describe("benchwright gate in a GitHub Actions job", () => {
  let workspace: string;

  /** The job of a harness's output (the generic JSON at `level` ms). */
  const job = (git: { ref?: string; head?: string; base?: string }, level: number, extra: Record<string, string> = {}) =>
    githubJob(JOB, workspace, git, { LEVEL: String(level), ...extra });

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), "bw-ci-job-"));
    // main's history: eight pushes at 50 ms (main gates itself; its first runs have no history yet).
    for (let i = 0; i < 8; i++) {
      const push = await job({ ref: "main" }, 50, { GATE_FLAGS: "--inconclusive pass" });
      expect(push.code, push.stderr).toBe(0);
    }
  }, 180_000);
  afterAll(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  it("exits 0 on a branch with no change: compared with main's history from its first run", async () => {
    const run = await job({ head: "feature/same", base: "main" }, 50);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report).toContain("### ✅ Benchmarks: nothing worse");
    expect(run.report).toMatch(
      /\| ✅ equivalent \| request_latency \| generic\/api on ubuntu-latest \| 1\.0\d\d× [-+]\d\.\d% \([-+]\d\.\d% to [-+]\d\.\d%\) \| main, 8 points \|/,
    );
    expect(run.summary).toBe(run.report);
    expect(run.stdout).not.toContain("::error");
  }, 60_000);

  it("exits 1 after a 10% slowdown, a feature branch's first gate against main's history: the Markdown names the metric, ratio and interval", async () => {
    const run = await job({ head: "feature/slow", base: "main" }, 55);
    expect(run.code, run.stderr).toBe(1);
    expect(run.report).toContain("### ❌ Benchmarks: 1 worse");
    expect(run.report).toContain("on branch `feature/slow`");
    expect(run.report).toMatch(
      /\| ❌ worse \| request_latency \| generic\/api on ubuntu-latest \| 1\.1\d\d× \+1\d\.\d% \(\+\d+\.\d% to \+1\d\.\d%\) \| main, 8 points \| \[series\]\(http:\/\/127\.0\.0\.1:\d+\/ui\/#\/series\/[0-9a-f-]{36}\) \|/,
    );
    expect(run.report).toMatch(
      /- \*\*request_latency\*\*: feature\/slow \([0-9a-f]{8}\) is 1\d\.\d% worse than main's last 8 points on request_latency \(lower is better; 95% CI/,
    );
    expect(run.summary).toBe(run.report);
    // GitHub's workflow command: `%` is written %25, `:` in a property %3A.
    expect(run.stdout).toMatch(
      /^::error title=Benchmark worse%3A request_latency 1\.1\d\d× \+1\d\.\d%25 \(.*\)::feature\/slow .* worse than main's last 8 points/m,
    );

    // The same gate as JUnit: valid against Jenkins' JUnit schema, one failure for the worse cell.
    const junit = join(workspace, "junit.xml");
    const again = await runCli(["gate", "--ingest", run.ingestId, "--format", "junit", "-o", junit, "--url", server.url]);
    expect(again.code, again.stderr).toBe(1);
    await promisify(execFile)("xmllint", ["--noout", "--schema", XSD, junit]);
    const xml = readFileSync(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(1);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/<failure message="request_latency is worse: 1\.1\d\d× \+1\d\.\d% \(.*\)" type="worse">worse: /);
  }, 60_000);

  it("exits 4 when the metric is inconclusive (--inconclusive fail, the default), 0 with --inconclusive warn", async () => {
    const run = await job({ head: "feature/noisy", base: "main" }, 55, { SPREAD: "0.3" });
    expect(run.code, run.stderr).toBe(4);
    expect(run.report).toContain("### ⚠️ Benchmarks: 1 inconclusive");
    expect(run.report).toMatch(
      /- \*\*request_latency\*\*: Whether feature\/noisy \([0-9a-f]{8}\) differs from main's last 8 points on request_latency by more than 5\.0% cannot be told yet/,
    );
    expect(run.stdout).toMatch(/^::error title=Benchmark inconclusive/m);
    const warned = await runCli(["gate", "--ingest", run.ingestId, "--inconclusive", "warn", "--url", server.url], { GITHUB_ACTIONS: "true" });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stdout).toMatch(/^::warning title=Benchmark inconclusive/m);
    expect(warned.stderr).toContain("1 inconclusive: let through");
  }, 60_000);

  it("is a usage error (2) without a file or an ingest, for a file that is not there, and for a bad margin", async () => {
    const env = { GITHUB_ACTIONS: "", GITHUB_SHA: "" };
    expect((await runCli(["gate", "--url", server.url], env)).code).toBe(2);
    const missing = await runCli(["gate", "--adapter", "generic", join(workspace, "nope.json"), "--url", server.url], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    expect((await runCli(["gate", "--ingest", "00000000-0000-4000-8000-000000000000", "--margin", "5", "--url", server.url], env)).code).toBe(2);
    // A file its adapter cannot read: the server's 400, each pointer listed.
    writeFileSync(join(workspace, "bad.json"), '[{"metric": "m", "value": "fast", "better": "lower"}]');
    const bad = await runCli(["gate", "--adapter", "generic", join(workspace, "bad.json"), "--url", server.url], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("/body/output/0/value: must be a finite number");
  }, 60_000);
});

// Issue 39, point 1 with runs Benchwright makes: the job gates a plan it runs (on `local`); the
// benchmark reports a level the test writes in a file (not a param: a param is part of a series'
// identity), with a fixed wobble by repetition, so that the gate's logic is tested, not timing.
describe("benchwright gate --plan in a GitHub Actions job: executions Benchwright runs", () => {
  const PLAN_JOB = resolve(here, "../../test/fixtures/ci/github-plan-job.sh");
  let workspace: string;
  let bench: string;
  const setLevel = (level: number, spread = 0.005) => {
    writeFileSync(join(bench, "level"), String(level));
    writeFileSync(join(bench, "spread"), String(spread));
  };
  const planJob = (git: { ref?: string; head?: string; base?: string }, level: number, spread?: number, extra: Record<string, string> = {}) => {
    setLevel(level, spread);
    return githubJob(PLAN_JOB, workspace, git, extra);
  };
  const plan = (labels: string[]) =>
    [
      "targets:",
      ...labels.map((l) => `  - { label: ${l}, provider: local, service: default }`),
      "benchmarks:",
      "  - { tool: latency, workload: api }",
      "repetitions: { count: 5 }",
      "",
    ].join("\n");

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), "bw-ci-plan-job-"));
    bench = mkdtempSync(join(tmpdir(), "bw-ci-bench-"));
    chmodSync(bench, 0o755);
    mkdirSync(join(server.configDir, "benchmarks"), { recursive: true });
    writeFileSync(
      join(server.configDir, "benchmarks", "latency.yaml"),
      [
        "id: latency",
        "tool_name: Latency",
        "description: Dropped in by a test",
        "parser: keyvalue",
        "metrics:",
        "  request_latency: {unit: ms, better: lower, description: A request's latency}",
        "timeout: {prepare: 60, run: 60}",
        "scripts: {}",
        "workloads:",
        "  - id: api",
        "    workload_name: api",
        "    workload_description: Reports the level in its files, with a fixed wobble by repetition",
        "    categories: [test]",
        "    scripts:",
        `      run: awk -v l="$(cat '${bench}/level')" -v s="$(cat '${bench}/spread')" -v i="$BW_REPETITION" 'BEGIN { printf "BW_METRIC request_latency %.6f ms\\n", l * (1 + s * sin(1 + i * 1.7)) }'`,
        "",
      ].join("\n"),
    );
    writeFileSync(join(workspace, "plan.yaml"), plan(["ci"]));
    // main's history: six runs made through the API with their branch, then two pushes whose gate runs the plan.
    const bw = createClient({ baseUrl: server.url });
    setLevel(50);
    const session = await bw.createSession({ provider: "local", service: "default" });
    for (let i = 0; i < 6; i++) {
      const e = await bw.createExecution(session.id, { tool: "latency", workload: "api", repetitions: { count: 5 }, branch: "main", commit: `m${i}` });
      await bw.prepare(e.id);
      await bw.run(e.id);
    }
    await bw.deleteSession(session.id);
    for (let i = 0; i < 2; i++) {
      const push = await planJob({ ref: "main" }, 50);
      expect(push.code, `${push.stderr}\n${push.report}`).toBe(0);
      expect(push.report).toMatch(/\| ✅ equivalent \| request_latency \| latency\/api on ci \| 1\.000× [-+]0\.0% \(.*\) \| main, \d points \|/);
    }
  }, 180_000);
  afterAll(() => {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(bench, { recursive: true, force: true });
  });

  it("exits 0 on a feature branch with no change: its first gate compared with main's history; its points carry its branch and commit", async () => {
    const run = await planJob({ head: "feature/same-run", base: "main" }, 50);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report).toContain("### ✅ Benchmarks: nothing worse");
    expect(run.report).toMatch(/\| ✅ equivalent \| request_latency \| latency\/api on ci \| 1\.000× [-+]0\.0% \(.*\) \| main, 8 points \|/);
    const bw = createClient({ baseUrl: server.url });
    const [series] = await bw.listSeries({ tool: "latency" });
    const main = await bw.listSeriesPoints(series!.id, { branch: "main" });
    expect(main.map((p) => p.commit?.slice(0, 2))).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", expect.any(String), expect.any(String)]);
    expect(await bw.listSeriesPoints(series!.id, { branch: "feature/same-run" })).toEqual([expect.objectContaining({ commit: run.sha, ingest_id: null })]);
  }, 60_000);

  it("exits 1 after a 10% slowdown, a feature branch's first gate against main's history: the Markdown names the metric, ratio and interval", async () => {
    const run = await planJob({ head: "feature/slow-run", base: "main" }, 55);
    expect(run.code, run.stderr).toBe(1);
    expect(run.report).toContain("### ❌ Benchmarks: 1 worse");
    expect(run.report).toContain("on branch `feature/slow-run`");
    expect(run.report).toMatch(
      /\| ❌ worse \| request_latency \| latency\/api on ci \| 1\.100× \+10\.0% \(\+\d+\.\d% to \+1\d\.\d%\) \| main, 8 points \| \[series\]/,
    );
    expect(run.report).toMatch(/- \*\*request_latency\*\*: feature\/slow-run \([0-9a-f]{8}\) is 10\.0% worse than main's last 8 points on request_latency/);
    expect(run.stdout).toMatch(/^::error title=Benchmark worse%3A request_latency 1\.100× \+10\.0%25/m);
  }, 60_000);

  it("exits 4 when the cell is inconclusive", async () => {
    const run = await planJob({ head: "feature/noisy-run", base: "main" }, 55, 0.3);
    expect(run.code, run.stderr).toBe(4);
    expect(run.report).toContain("### ⚠️ Benchmarks: 1 inconclusive");
  }, 60_000);

  it("compares with a target of the same run: --baseline-target for a plan, --baseline-executions for executions already run", async () => {
    writeFileSync(join(workspace, "plan.yaml"), plan(["base", "candidate"]));
    const same = await planJob({ head: "feature/targets", base: "main" }, 50, 0.005, { GATE_FLAGS: "--baseline-target base" });
    writeFileSync(join(workspace, "plan.yaml"), plan(["ci"]));
    expect(same.code, same.stderr).toBe(0);
    expect(same.report).toMatch(/\| ✅ equivalent \| request_latency \| latency\/api on candidate \| 1\.000× [-+]0\.0% \(.*\) \| target base \|/);

    // Two executions already run, the second 10% slower: gated one against the other.
    const bw = createClient({ baseUrl: server.url });
    const session = await bw.createSession({ provider: "local", service: "default" });
    const ran: string[] = [];
    for (const level of [50, 55]) {
      setLevel(level);
      const e = await bw.createExecution(session.id, { tool: "latency", workload: "api", repetitions: { count: 5 } });
      await bw.prepare(e.id);
      await bw.run(e.id);
      ran.push(e.id);
    }
    await bw.deleteSession(session.id);
    const gate = await runCli(["gate", "--executions", ran[1]!, "--baseline-executions", ran[0]!, "--format", "json", "--url", server.url]);
    expect(gate.code, gate.stderr).toBe(1);
    const answer = JSON.parse(gate.stdout);
    expect(answer).toMatchObject({ ingest_id: null, execution_ids: [ran[1]], outcome: "worse" });
    expect(answer.cells[0]).toMatchObject({ verdict: "worse", baseline: { branch: null, execution_id: ran[0], points: 1 } });
    expect(answer.cells[0].ratio).toBeCloseTo(1.1, 6);
    // A target of the same run has no branch history: mixing them is a usage error.
    const mixed = await runCli(["gate", "--executions", ran[1]!, "--baseline-executions", ran[0]!, "--last", "5", "--url", server.url]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--last: a branch's history, not with a target of the same run");
  }, 90_000);
});
