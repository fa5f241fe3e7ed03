import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestSchema, startOpenStackDouble, startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, type BenchwrightProcess } from "../test-support/processes.js";

// Issue 9's acceptance: two servers and a worker, each a process of its own, share one real
// PostgreSQL. The servers run no steps (BENCHWRIGHT_WORKER=false), so every step below is the
// worker's. The "cloud" is the OpenStack double (a local HTTP server every process reaches);
// its instances are the private sshd.

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

describe("two servers and workers on one PostgreSQL", () => {
  let sshd: SshdHarness;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let openstack: Awaited<ReturnType<typeof startOpenStackDouble>>;
  let configDir: string;
  const dirs: string[] = [];
  const processes: BenchwrightProcess[] = [];
  let env: Record<string, string>;
  let a: BenchwrightProcess;
  let b: BenchwrightProcess;
  let worker: BenchwrightProcess;

  const start = async (command: "serve" | "worker", extra: Record<string, string> = {}) => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-shared-"));
    dirs.push(dataDir);
    const p = await startProcess(command, { ...env, BENCHWRIGHT_DATA_DIR: dataDir, ...extra });
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    sshd = await startSshd();
    schema = await createTestSchema();
    openstack = await startOpenStackDouble({ sshHost: sshd.host, privateKey: sshd.privateKey });
    configDir = mkdtempSync(join(tmpdir(), "bw-shared-config-"));
    dirs.push(configDir);
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    // Prints a numbered line every 200 ms for 30 s, then a metric.
    writeFileSync(
      join(configDir, "benchmarks", "ticker.yaml"),
      [
        "id: ticker",
        "tool_name: ticker",
        "parser: keyvalue",
        "timeout: {prepare: 60, run: 120}",
        "scripts: {}",
        "workloads:",
        "  - id: tick",
        "    workload_name: tick",
        "    workload_description: A line every 200 ms for 30 s",
        "    categories: [test]",
        "    scripts:",
        "      run: |",
        '        for i in $(seq 1 150); do echo "tick $i"; sleep 0.2; done',
        "        echo 'BW_METRIC ticks 150 count'",
      ].join("\n") + "\n",
    );
    env = {
      DATABASE_URL: schema.url,
      BENCHWRIGHT_SECRET_KEY: randomBytes(32).toString("base64"),
      BENCHWRIGHT_CONFIG_DIR: configDir,
      // The OpenStack double listens on loopback.
      BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS: "true",
    };
    [a, b, worker] = await Promise.all([start("serve", { BENCHWRIGHT_WORKER: "false" }), start("serve", { BENCHWRIGHT_WORKER: "false" }), start("worker")]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await openstack?.stop();
    await schema?.drop();
    await sshd?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const call = async (server: BenchwrightProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.api + path, {
      method,
      headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
    };
  };
  const existingVm = () => ({
    config: {
      provider: { class: "existing-vm", name: "lab" },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  });
  const execution = async (server: BenchwrightProcess, sessionId: string, tool: string, workload: string) =>
    (await call(server, "POST", `/sessions/${sessionId}/executions/`, { tool, workload })).body.id as string;
  const until = async <T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  it("creates a session's machines once when two servers prepare at once", async () => {
    // Servers that run steps themselves: each prepare is driven by the process that received it.
    const [c, d] = await Promise.all([start("serve"), start("serve")]);
    const session = await call(a, "POST", "/sessions/", {
      config: {
        provider: {
          class: "cloud",
          name: "openstack",
          driver: "openstack",
          auth_url: openstack.authUrl,
          auth_version: "3.x_password",
          access_id: openstack.username,
          secret_key: openstack.password,
          tenant: openstack.project,
        },
        small: {
          image: "ubuntu-22.04",
          size: "m1.small",
          vm_user: sshd.username,
          platform: "debian_12",
          network: "private",
          security_group: "default",
          ssh_port: sshd.port,
        },
      },
    });
    expect(session.body).toMatchObject({ id: expect.any(String) });
    const first = await execution(a, session.body.id, "idle", "idle0");
    const second = await execution(a, session.body.id, "idle", "idle0");
    // The same execution on both servers, and another execution of the session on B, all at once.
    const [onA, onB, otherOnB] = await Promise.all([
      call(c, "POST", `/executions/${first}/prepare`),
      call(d, "POST", `/executions/${first}/prepare`),
      call(d, "POST", `/executions/${second}/prepare`),
    ]);
    expect([onA.status, onB.status].sort()).toEqual([200, 409]);
    expect(otherOnB.status).toBe(200);
    expect(openstack.inventory().servers).toHaveLength(1);
    const run = await call(b, "POST", `/executions/${second}/run`);
    expect(run.status).toBe(200);
    expect((await call(a, "GET", `/executions/${second}`)).body.metrics[0]).toMatchObject({ name: "idle_seconds" });
    expect((await call(b, "DELETE", `/sessions/${session.body.id}`)).status).toBe(204);
    expect(openstack.inventory().servers).toHaveLength(0);
    await Promise.all([c.stop(), d.stop()]);
  }, 120_000);

  it("serves on B the live log of a step the worker runs, and a DELETE on B stops it", async () => {
    const sessionId = (await call(a, "POST", "/sessions/", existingVm())).body.id;
    const id = await execution(a, sessionId, "ticker", "tick");
    expect((await call(a, "POST", `/executions/${id}/prepare`)).body).toMatchObject({ duration: expect.any(String) });
    const accepted = await call(a, "POST", `/executions/${id}/run`, undefined, { Prefer: "respond-async" });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("location")).toBe(`/api/v1/executions/${id}/steps/run/1`);

    // B follows the log as the worker stores it.
    const controller = new AbortController();
    const res = await fetch(`${b.api}/executions/${id}/logs?step=run&follow=true`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes("tick 5\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += Buffer.from(value).toString("utf8");
    }
    controller.abort();
    expect(seen).toMatch(/^tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n/m);

    const pidFile = join(homedir(), ".benchwright", id, "run-1", "step.pid");
    const pgid = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(pgid)).toBe(true);
    const deleted = Date.now();
    expect((await call(b, "DELETE", `/sessions/${sessionId}`)).status).toBe(204);
    expect(Date.now() - deleted).toBeLessThan(20_000);
    expect(alive(pgid)).toBe(false);
    const exec = (await call(a, "GET", `/executions/${id}`)).body;
    expect(exec.state).toBe("run_failed");
    expect(existsSync(dirname(pidFile))).toBe(false);
  }, 120_000);

  it("stops a run the worker drives when B is asked to cancel it, and the session runs it again", async () => {
    const sessionId = (await call(a, "POST", "/sessions/", existingVm())).body.id;
    const id = await execution(a, sessionId, "ticker", "tick");
    expect((await call(a, "POST", `/executions/${id}/prepare`)).status).toBe(200);
    expect((await call(a, "POST", `/executions/${id}/run`, undefined, { Prefer: "respond-async" })).status).toBe(202);
    const pidFile = join(homedir(), ".benchwright", id, "run-1", "step.pid");
    await until("the step to start", async () => (existsSync(pidFile) ? true : undefined), 15_000);
    const pgid = Number(readFileSync(pidFile, "utf8").trim());
    expect(alive(pgid)).toBe(true);

    // B runs no steps: the worker process sees the request at its next lease renewal and stops the step on the host.
    const asked = Date.now();
    const cancelled = await call(b, "POST", `/executions/${id}/cancel`, undefined, { "X-Request-Id": "cancel-on-b" });
    expect(cancelled.status).toBe(200);
    expect(Date.now() - asked).toBeLessThan(15_000);
    expect(cancelled.body.state).toBe("run_failed");
    expect(cancelled.body.steps.at(-1).error).toMatch(/^run 1 of ticker\/tick was cancelled at \S+ \(request cancel-on-b\)$/);
    expect(alive(pgid)).toBe(false);
    expect((await call(a, "GET", `/executions/${id}/steps/run/1`)).body.error).toMatchObject({ code: "step_cancelled" });
    expect((await call(a, "POST", `/executions/${id}/cancel`)).body).toMatchObject({ code: "no_running_step", state: "run_failed" });
    // The log the worker stored ends with the cancel.
    expect((await call(a, "GET", `/executions/${id}/logs?step=run&attempt=1`)).body).toMatch(/^tick 1\n[\s\S]*=== run 1 cancelled at .*===\n$/);

    const again = await call(a, "POST", `/executions/${id}/run`, undefined, { Prefer: "respond-async" });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ step: "run", attempt: 2 });
    // A second cancel of the second attempt, from A this time, ends it too: the session is kept throughout.
    await until("the second run to start", async () => (existsSync(join(homedir(), ".benchwright", id, "run-2", "step.pid")) ? true : undefined), 15_000);
    expect((await call(a, "POST", `/executions/${id}/cancel`)).status).toBe(200);
    expect((await call(b, "GET", `/sessions/${sessionId}`)).body.state).toBe("active");
    expect((await call(b, "DELETE", `/sessions/${sessionId}`)).status).toBe(204);
  }, 120_000);

  it("hands a step over when its worker is killed: another worker takes it, and it completes once", async () => {
    const sessionId = (await call(a, "POST", "/sessions/", existingVm())).body.id;
    const id = await execution(a, sessionId, "idle", "idle30");
    expect((await call(a, "POST", `/executions/${id}/prepare`)).body).toMatchObject({ duration: expect.any(String) });
    const accepted = await call(b, "POST", `/executions/${id}/run`, undefined, { Prefer: "respond-async" });
    expect(accepted.status).toBe(202);
    const pidFile = join(homedir(), ".benchwright", id, "run-1", "step.pid");
    await until("the step to start", async () => (existsSync(pidFile) ? true : undefined), 15_000);
    const second = await start("worker");
    await worker.kill();
    const killed = Date.now();
    const ended = await until(
      "the step to end",
      async () => {
        const step = (await call(a, "GET", `/executions/${id}/steps/run/1`)).body;
        return step.state === "running" ? undefined : step;
      },
      90_000,
    );
    expect(ended.state).toBe("succeeded");
    expect(ended.metrics).toEqual([expect.objectContaining({ name: "idle_seconds", unit: "s" })]);
    expect(ended.metrics[0].value).toBeGreaterThanOrEqual(30);
    // Taken over within the lease (15 s) and a sweep: the step ended when the host says it did.
    expect(Date.now() - killed).toBeLessThan(45_000);
    const exec = (await call(a, "GET", `/executions/${id}`)).body;
    expect(exec.state).toBe("completed");
    expect(exec.steps.filter((s: { step: string }) => s.step === "run")).toHaveLength(1);
    expect(exec.metrics).toHaveLength(1);
    // One process group ran the step: the launch wrote one pid, and it is the one that ended.
    expect(Number(readFileSync(pidFile, "utf8").trim())).toBeGreaterThan(1);
    expect(second.logs.join("\n")).not.toMatch(/ended in error/);
    worker = second;
  }, 150_000);

  it("drives a plan run from the database: with its driver and its step's worker killed, others take both over, each cell once", async () => {
    const lab = { label: "lab", ...existingVm() };
    const planId = (await call(a, "POST", "/plans/", { targets: [lab], benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [6, 1, 1] } }] }))
      .body.id;
    const started = await call(b, "POST", `/plans/${planId}/runs/`);
    expect(started.status).toBe(202);
    const runId = started.body.id;
    const runOn = async (server: BenchwrightProcess) => (await call(server, "GET", `/plans/${planId}/runs/${runId}`)).body;
    await until("the first cell to run", async () => ((await runOn(a)).cells[0].state === "running" ? true : undefined), 30_000);
    const driver = processes.find((p) => p.logs.some((line) => line.includes(`driving plan run ${runId}`)));
    expect(driver).toBeDefined();
    const second = await start("worker");
    // The driver (whichever process it is) and the worker that runs the step die together.
    await Promise.all([driver!.kill(), worker.kill()]);
    const alive = [a, b].find((p) => p !== driver)!;
    const run = await until(
      "the run to end",
      async () => {
        const now = await runOn(alive);
        return ["completed", "failed", "cancelled"].includes(now.state) ? now : undefined;
      },
      120_000,
    );
    expect(run.state).toBe("completed");
    for (const cell of run.cells) {
      expect(cell).toMatchObject({ state: "completed", attempts: 2 });
      const exec = (await call(alive, "GET", `/executions/${cell.execution_id}`)).body;
      expect(exec.steps.map((s: { step: string; state: string }) => `${s.step}:${s.state}`)).toEqual(["prepare:succeeded", "run:succeeded"]);
    }
    expect((await call(alive, "GET", `/sessions/${run.sessions.lab}`)).body.code).toBe("session_gone");
    // Another process took the run over.
    const takers = processes.filter((p) => p !== driver && p.logs.some((line) => line.includes(`driving plan run ${runId}`)));
    expect(takers.length).toBeGreaterThan(0);
    worker = second;
  }, 180_000);
});

/** Whether any process of the group still runs (zombies do not count). */
function alive(pgid: number): boolean {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}
