import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { queryDatabase } from "@benchwright/engine/test-access";

// Issue 3's acceptance, through the REST API, on an existing-vm session whose "VM" is a
// private OpenSSH server on loopback: every step really runs over SSH. The steps whose figures
// or memory the machine's load would skew are in existing-vm.test.ts, which runs alone; these
// run beside the other files.
describe("existing-vm over SSH, end to end", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sessionId: string;
  const executions: string[] = [];
  // What the dropped-in tool `versioned` says its version is: a file the test rewrites.
  const versionDir = mkdtempSync(join(tmpdir(), "bw-versioned-"));
  const versionFile = join(versionDir, "VERSION");

  beforeAll(async () => {
    sshd = await startSshd();
    fx = await openFixture();
    dropDefinition(fx.configDir, {
      id: "versioned",
      workload: "quick",
      run: "echo 'BW_METRIC answer 42 units'",
      toolScripts: { version: `cat ${versionFile}` },
    });
    api = request(fx.app);
    // Form B, the key inline.
    const body = JSON.stringify({
      config: {
        provider: { class: "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider", name: "loopback" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    });
    const res = await api.post("/api/v1/sessions/").set("Content-Type", "application/json").send(body).expect(200);
    sessionId = res.body.id;
  }, 60_000);

  afterAll(async () => {
    await fx?.close();
    await sshd?.stop();
    rmSync(versionDir, { recursive: true, force: true });
  });

  async function create(tool: string, workload: string, params?: Record<string, unknown>): Promise<string> {
    const res = await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload, params }).expect(200);
    executions.push(res.body.id);
    return res.body.id;
  }

  async function prepareAndRun(tool: string, workload: string, params?: Record<string, unknown>) {
    const id = await create(tool, workload, params);
    const prepared = await api.post(`/api/v1/executions/${id}/prepare`);
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const ran = await api.post(`/api/v1/executions/${id}/run`);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    return (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
  }

  it("records the version a dropped-in tool's version script prints, read again by each prepare; none for a tool with nothing installed", async () => {
    const versionAfterPrepare = async (tool: string, workload: string) => {
      const id = await create(tool, workload);
      await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
      return (await api.get(`/api/v1/executions/${id}`).expect(200)).body.exec_env.vms[0].facts;
    };
    writeFileSync(versionFile, "1.4.2\n");
    expect(await versionAfterPrepare("versioned", "quick")).toMatchObject({ tool_version: "1.4.2" });
    writeFileSync(versionFile, "1.5.0 (built today)\n");
    expect(await versionAfterPrepare("versioned", "quick")).toMatchObject({ tool_version: "1.5.0 (built today)" });
    // A version script that fails records no version, and the prepare still succeeds.
    rmSync(versionFile);
    expect(await versionAfterPrepare("versioned", "quick")).not.toHaveProperty("tool_version");
    expect(await versionAfterPrepare("idle", "idle0")).not.toHaveProperty("tool_version");
  }, 60_000);

  it("prepares and runs fio randread", async () => {
    // One second on a 16 MiB file, not three on 64: the test asks for a figure, and the shorter
    // job lets this file run beside the others (the parallel tier) without starving them.
    const exec = await prepareAndRun("fio", "randread", { runtime: 1, size: 16 });
    expect(exec.metrics).toContainEqual(expect.objectContaining({ name: "iops", unit: "IO/s", tags: expect.objectContaining({ direction: "read" }) }));
  }, 900_000);

  it("prepares and runs iperf3 tcp_10_1", async () => {
    // One second of it, not ten: the test asks for a figure, not a measurement.
    const exec = await prepareAndRun("iperf3", "tcp_10_1", { duration: 1 });
    const received = exec.metrics.find((m: { name: string }) => m.name === "received_bits_per_second");
    expect(received.value).toBeGreaterThan(0);
    expect(received.unit).toBe("bit/s");
  }, 900_000);

  it("completes a run whose SSH connection is killed in the middle, and records its metrics", async () => {
    const id = await create("idle", "idle5");
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    const run = api.post(`/api/v1/executions/${id}/run`).then((r) => r);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await sshd.killSessionProcesses()).toBeGreaterThan(0);
    const res = await run;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(exec.metrics).toContainEqual(expect.objectContaining({ name: "idle_seconds" }));
    expect(exec.metrics[0].value).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it("ends idle/failing run_failed with its exit code, and the session stays usable", async () => {
    const id = await create("idle", "failing");
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    const res = await api.post(`/api/v1/executions/${id}/run`).expect(502);
    expect(res.body).toMatchObject({ code: "step_failed", exit_code: 3, state: "run_failed" });
    expect((await api.get(`/api/v1/executions/${id}`)).body.state).toBe("run_failed");
    const ok = await prepareAndRun("idle", "idle0");
    expect(ok.state).toBe("completed");
  }, 120_000);

  it("fails a step when the host key changed since first use", async () => {
    const id = await create("idle", "idle0");
    await queryDatabase(fx.engine, "UPDATE machines SET host_key = 'SHA256:somethingelse' WHERE session_id = $1", [sessionId]);
    // Host keys are checked when a connection opens: drop the pooled one.
    await sshd.killSessionProcesses();
    const res = await api.post(`/api/v1/executions/${id}/prepare`);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("host_key_mismatch");
    expect(res.body.detail).toContain("SHA256:somethingelse");
    await queryDatabase(fx.engine, "UPDATE machines SET host_key = NULL WHERE session_id = $1", [sessionId]);
  }, 60_000);

  it("never writes the private key to a log line", () => {
    const keyLines = sshd.privateKey.split("\n").filter((l) => l && !l.startsWith("-----"));
    const logs = fx.logs.join("\n");
    expect(logs.length).toBeGreaterThan(0);
    for (const line of keyLines) expect(logs.includes(line)).toBe(false);
  });

  it("leaves no work dir on the host once the session is deleted", async () => {
    expect(executions.some((id) => existsSync(join(homedir(), ".benchwright", id)))).toBe(true);
    await api.delete(`/api/v1/sessions/${sessionId}`).expect(204);
    for (const id of executions) expect(existsSync(join(homedir(), ".benchwright", id)), id).toBe(false);
  }, 60_000);
});
