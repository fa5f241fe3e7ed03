import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "./engine.js";
import { SecretBox } from "./secrets/secret-box.js";

// A run's telemetry, taken for real: an existing-vm session whose host is the private sshd on
// loopback (this machine), stress-ng from the catalogue (its prepare installs it where it is
// missing), and a CPU hog the test starts beside it. The sampler reads this machine's /proc.
/** Runnable tasks on this machine now, this reader left out (/proc/loadavg's fourth field). */
const runnable = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[3].split("/")[0]) - 1;

/** Whether this machine has had room on its CPUs (at most `cpus` runnable) in 8 of 10 looks over 2 s. */
async function quietHost(cpus: number): Promise<boolean> {
  let quiet = 0;
  for (let i = 0; i < 10; i++) {
    if (runnable() <= cpus) quiet++;
    await new Promise((r) => setTimeout(r, 200));
  }
  return quiet >= 8;
}

describe("the telemetry of a run", () => {
  let sshd: SshdHarness;
  let dataDir: string;
  let engine: Engine;
  let sessionId: string;
  const cpus = availableParallelism();

  beforeAll(async () => {
    sshd = await startSshd();
    dataDir = mkdtempSync(join(tmpdir(), "bw-telemetry-"));
    engine = await Engine.open({ dataDir, configDir: join(dataDir, "config"), secrets: new SecretBox(randomBytes(32)) });
    const session = await engine.createSession({
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    } as Parameters<Engine["createSession"]>[0]);
    sessionId = session.id;
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    await sshd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** One busy loop per CPU: with stress-ng's own, twice as many runnable tasks as CPUs. */
  const startHog = (): ChildProcess[] => Array.from({ length: cpus }, () => spawn("sh", ["-c", "while :; do :; done"], { stdio: "ignore" }));

  it("shows stress-ng beside a CPU hog crowding the CPUs (run queue above the CPU count), and an idle run not", async () => {
    const stress = await engine.createExecution(sessionId, { tool: "stress-ng", workload: "cpu", params: { duration: 6 } });
    await engine.prepare(stress.id);
    const hog = startHog();
    try {
      await engine.run(stress.id);
    } finally {
      for (const p of hog) p.kill("SIGKILL");
    }
    const crowded = await engine.executionTelemetry(stress.id);
    if (crowded.format !== "json") throw new Error("json asked");
    expect(crowded.body).toMatchObject({ execution_id: stress.id, attempt: 1, enabled: true, interval_ms: 1000 });
    expect(crowded.body.machines).toHaveLength(1);
    const [busy] = crowded.body.machines;
    expect(busy.cpus).toBe(cpus);
    // Six seconds sampled once a second, and a last sample when the step ended.
    expect(busy.samples.length).toBeGreaterThanOrEqual(5);
    const figure = (m: typeof busy, name: string) => m.summary.find((f) => f.name === name)!.value;
    expect(figure(busy, "run_queue_max")).toBeGreaterThan(cpus);
    expect(figure(busy, "run_queue_mean")).toBeGreaterThan(cpus);
    expect(figure(busy, "cpu_busy_mean")).toBeGreaterThan(80);
    // The tool's figures stay its own: no telemetry among them.
    expect((await engine.getExecution(stress.id)).metrics.every((m) => !m.name.startsWith("run_queue"))).toBe(true);

    const idle = await engine.createExecution(sessionId, { tool: "idle", workload: "idle5" });
    await engine.prepare(idle.id);
    const hostWasQuiet = await quietHost(cpus);
    await engine.run(idle.id);
    const calm = await engine.executionTelemetry(idle.id);
    if (calm.format !== "json") throw new Error("json asked");
    const [quiet] = calm.body.machines;
    expect(quiet.samples.length).toBeGreaterThanOrEqual(4);
    const figures = (m: typeof busy) => ["run_queue_mean", "run_queue_max", "cpu_busy_mean", "cpu_steal_mean"].map((n) => `${n} ${figure(m, n)}`).join(", ");
    console.info(`${cpus} CPUs; stress-ng beside the hog: ${figures(busy)}; idle: ${figures(quiet)}`);
    // Whatever else shares this machine, the idle run saw less waiting and less CPU busy than
    // stress-ng beside the hog did.
    expect(figure(quiet, "run_queue_mean")).toBeLessThan(figure(busy, "run_queue_mean"));
    expect(figure(quiet, "cpu_busy_mean")).toBeLessThan(figure(busy, "cpu_busy_mean"));
    // Alone on its host, an idle run also leaves room on the CPUs in most of its samples. A
    // machine shared with other builds and tests puts their load in the run queue: that absolute
    // reading is checked only when the host was quiet just before.
    if (hostWasQuiet) {
      const roomy = quiet.samples.filter((s) => s.run_queue <= cpus).length;
      expect(roomy).toBeGreaterThanOrEqual(quiet.samples.length / 2);
    } else console.warn(`the host was busy with other work: idle run queue ${JSON.stringify(quiet.samples.map((s) => s.run_queue))}`);

    // The same samples as CSV: a header, then one line per sample.
    const csv = await engine.executionTelemetry(idle.id, { format: "csv" });
    if (csv.format !== "csv") throw new Error("csv asked");
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "attempt,machine_id,role,repetition,cpus,at,cpu_user,cpu_system,cpu_iowait,cpu_steal,cpu_idle,run_queue,mem_used_bytes,mem_available_bytes,disk_read_bytes_per_s,disk_write_bytes_per_s,net_rx_bytes_per_s,net_tx_bytes_per_s",
    );
    expect(lines).toHaveLength(quiet.samples.length + 1);
    expect(lines[1]).toMatch(new RegExp(`^1,${quiet.machine_id},,1,${cpus},\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z,`));
  }, 600_000);

  it("takes no samples from a run whose execution turned telemetry off", async () => {
    const idle = await engine.createExecution(sessionId, { tool: "idle", workload: "idle0", telemetry: false });
    expect(idle.telemetry).toBe(false);
    await engine.prepare(idle.id);
    await engine.run(idle.id);
    const answer = await engine.executionTelemetry(idle.id);
    expect(answer).toMatchObject({ format: "json", body: { enabled: false, machines: [] } });
    // Nor was a sampler started on the host.
    expect(existsSync(join(homedir(), ".benchwright", idle.id, "run-1", "step.log"))).toBe(true);
    expect(existsSync(join(homedir(), ".benchwright", idle.id, "run-1", "telemetry.log"))).toBe(false);
    // An attempt that is not there is a 404.
    await expect(engine.executionTelemetry(idle.id, { attempt: 2 })).rejects.toMatchObject({ code: "not_found" });
  }, 120_000);
});
