import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test-support/cli-process.js";
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
const BAD = `
targets:
  - { label: here, provider: nowhere }
benchmarks:
  - { tool: sysbench, workload: threads, params: { threads: [] } }
`;

describe("benchwright plan validate|create, against a real server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer();
    env = { BENCHWRIGHT_URL: server.url };
    dir = mkdtempSync(join(tmpdir(), "bw-plan-"));
    writeFileSync(join(dir, "good.yaml"), GOOD);
    writeFileSync(join(dir, "bad.yaml"), BAD);
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
});
