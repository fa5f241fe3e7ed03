import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { get } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";

// Issue 3's acceptance, through the REST API, on an existing-vm session whose "VM" is a
// private OpenSSH server on loopback: every step really runs over SSH. This file holds the steps
// whose figures (sysbench against a direct run) or memory the machine's load would skew: it runs
// alone, after the rest (the measuring project). The others are in existing-vm-steps.test.ts.
describe("existing-vm over SSH, end to end", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sessionId: string;
  const executions: string[] = [];

  beforeAll(async () => {
    sshd = await startSshd();
    fx = await openFixture();
    // A definition dropped into the config dir joins the catalog: one that floods its log.
    dropDefinition(fx.configDir, {
      id: "flood",
      workload: "mib200",
      runTimeout: 300,
      run: "head -c 209715200 /dev/zero | tr '\\0' x | fold -w 1023\necho\necho 'BW_METRIC printed_bytes 209715200 B'",
    });
    api = request(fx.app);
    // A definition dropped in while the server runs is listed at once.
    await api.get("/api/v1/benchmarks/flood").expect(200);
    // Form B, the key inline: JSON.stringify writes its line ends as \n, as the seed says.
    const body = JSON.stringify({
      config: {
        provider: { class: "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider", name: "loopback" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    });
    expect(body).toContain("\\n");
    const res = await api.post("/api/v1/sessions/").set("Content-Type", "application/json").send(body).expect(200);
    expect(JSON.stringify(res.body)).not.toContain("PRIVATE KEY");
    sessionId = res.body.id;
  }, 60_000);

  afterAll(async () => {
    await fx?.close();
    await sshd?.stop();
  });

  async function create(tool: string, workload: string, params?: Record<string, unknown>): Promise<string> {
    const res = await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload, params }).expect(200);
    executions.push(res.body.id);
    return res.body.id;
  }

  it("prepares (installing through apt when missing) and runs sysbench cpu_10000, within 20% of sysbench run directly", async () => {
    // One thread, the figure compared: its 2, 4 and 8 would add half as long again to a test that runs alone.
    const id = await create("sysbench", "cpu_10000", { threads: "1" });
    const prepared = await api.post(`/api/v1/executions/${id}/prepare`);
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    // The host is this machine: sysbench is here once prepared. Runs directly before and after
    // the service's run bound what the machine gave at the time (other tests share its cores).
    const direct = () => {
      const out = execFileSync("sysbench", ["cpu", "--cpu-max-prime=20000", "--events=10000", "--time=0", "--threads=1", "run"], {
        encoding: "utf8",
      });
      return Number(/events per second:\s*([\d.]+)/.exec(out)![1]);
    };
    const before = direct();
    const ran = await api.post(`/api/v1/executions/${id}/run`);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    const after = direct();
    const exec = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    expect(exec.state).toBe("completed");
    expect(exec.exec_env.vms[0]).toMatchObject({ ip: "127.0.0.1", platform: expect.stringMatching(/^debian_\d+/) });
    expect(exec.exec_env.vms[0].facts).toMatchObject({
      cpu_count: expect.any(Number),
      kernel: expect.any(String),
      os_release: expect.any(String),
      // The version of the package prepare installed, as dpkg has it.
      tool_version: execFileSync("dpkg-query", ["-W", "-f=${Package} ${Version}", "sysbench"], { encoding: "utf8" }),
    });
    const microcode = /^microcode\s*:\s*(\S+)/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1];
    expect(exec.exec_env.vms[0].facts.microcode).toBe(microcode);
    const viaService = exec.metrics.find((m: { name: string; tags?: { threads?: string } }) => m.name === "events_per_second" && m.tags?.threads === "1");
    expect(viaService).toMatchObject({ unit: "events/s" });
    expect(viaService.value, `direct runs: ${before} and ${after} events/s`).toBeGreaterThan(0.8 * Math.min(before, after));
    expect(viaService.value, `direct runs: ${before} and ${after} events/s`).toBeLessThan(1.2 * Math.max(before, after));
  }, 900_000);

  it("streams a 200 MiB log with the server's memory growing by less than 100 MiB, and gives it all back", async () => {
    const id = await create("flood", "mib200");
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const res = await api.post(`/api/v1/executions/${id}/run`);
    clearInterval(sampler);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((peak - before) / 2 ** 20).toBeLessThan(100);

    // Read the log back over a real socket, counting bytes without keeping them.
    const server = fx.app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    const bytes = await new Promise<number>((resolve, reject) => {
      get(`http://127.0.0.1:${port}/api/v1/executions/${id}/logs?step=run`, (r) => {
        let n = 0;
        r.on("data", (c: Buffer) => (n += c.length));
        r.on("end", () => resolve(n));
        r.on("error", reject);
      }).on("error", reject);
    });
    server.close();
    // 200 MiB of x, a newline after each 1023, the final echo, and the metric line.
    const body = 209715200 + Math.floor(209715200 / 1023) + 1 + "BW_METRIC printed_bytes 209715200 B\n".length;
    expect(bytes).toBe(body);
  }, 300_000);

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
