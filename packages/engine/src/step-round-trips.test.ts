import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "./engine.js";
import { SecretBox } from "./secrets/secret-box.js";
import type { RoundTrips } from "./transport/round-trips.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// Issue 36: the step protocol's round trips to a host, per kind of step, as the SSH pool counts
// them (channels opened, commands run, SFTP operations). These are the budget ARCHITECTURE.md
// states ("Round trips"): each is a count, whatever the network's delay, and one more is a
// regression. The host is the private sshd; the connection is warm before each count.
const TRIPS = [
  "id: trips",
  "tool_name: trips",
  "parser: keyvalue",
  "timeout: {prepare: 60, run: 60}",
  "scripts: {}",
  "workloads:",
  "  - id: noop",
  "    workload_name: no-op",
  "    workload_description: Does nothing",
  "    categories: [test]",
  "    scripts:",
  "      prepare: 'true'",
  "      run: echo 'BW_METRIC x 1 count'",
  "  - id: sleep",
  "    workload_name: sleeps",
  "    workload_description: Sleeps a minute",
  "    categories: [test]",
  "    scripts:",
  "      run: sleep 60",
].join("\n");

const PAIR = [
  "id: pair",
  "tool_name: pair",
  "parser: keyvalue",
  "timeout: {prepare: 60, run: 60}",
  "scripts: {}",
  "roles:",
  "  server: { count: 1, serves: true }",
  "  client: { count: 1 }",
  "workloads:",
  "  - id: noop",
  "    workload_name: a no-op server and client",
  "    workload_description: The server says it is ready and waits; the client does nothing",
  "    categories: [test]",
  "    scripts:",
  "      run@server: echo 'BW_READY port=1'; exec sleep 60",
  "      run@client: echo 'BW_METRIC x 1 count'",
].join("\n");

describe("the step protocol's round trips to an SSH host", () => {
  let sshd: SshdHarness;
  let dataDir: string;
  let engine: Engine;
  let sessionId: string;

  beforeAll(async () => {
    sshd = await startSshd();
    dataDir = mkdtempSync(join(tmpdir(), "bw-trips-"));
    mkdirSync(join(dataDir, "config", "benchmarks"), { recursive: true });
    writeFileSync(join(dataDir, "config", "benchmarks", "trips.yaml"), `${TRIPS}\n`);
    writeFileSync(join(dataDir, "config", "benchmarks", "pair.yaml"), `${PAIR}\n`);
    engine = await Engine.open({
      dataDir,
      configDir: join(dataDir, "config"),
      inMemory: true,
      pgliteImage: testPgliteImage(),
      secrets: new SecretBox(randomBytes(32)),
    });
    const session = await engine.createSession({
      config: {
        provider: { class: "existing-vm", name: "lab" },
        vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
      },
    } as Parameters<Engine["createSession"]>[0]);
    sessionId = session.id;
    // Warm: the connection is made (and its host key recorded) by a first step, not counted.
    const warm = await engine.createExecution(sessionId, { tool: "trips", workload: "noop" });
    await engine.prepare(warm.id);
    await engine.run(warm.id);
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    await sshd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** The round trips `op` asked of the host. */
  async function counted(op: () => Promise<unknown>): Promise<RoundTrips> {
    const before = (await engine.stats()).sshRoundTrips;
    await op();
    const after = (await engine.stats()).sshRoundTrips;
    return { channels: after.channels - before.channels, execs: after.execs - before.execs, sftp: after.sftp - before.sftp };
  }

  it("prepares in 2 commands: the machine's facts, then the prepare started and followed to its end", async () => {
    const { id } = await engine.createExecution(sessionId, { tool: "trips", workload: "noop" });
    expect(await counted(() => engine.prepare(id))).toEqual({ channels: 2, execs: 2, sftp: 0 });
  });

  it("runs a no-op in 1 command: started, followed, and its telemetry sent with its end", async () => {
    const { id } = await engine.createExecution(sessionId, { tool: "trips", workload: "noop" });
    await engine.prepare(id);
    expect(await counted(() => engine.run(id))).toEqual({ channels: 1, execs: 1, sftp: 0 });
    // The samples came with the end: the sampler ran beside the step, and its file was not read on its own.
    const telemetry = await engine.executionTelemetry(id);
    expect(telemetry.format === "json" && telemetry.body.machines.length).toBe(1);
  });

  it("runs a server and its client in 3: the server started until ready, the client run, the server stopped by its known group", async () => {
    const { id } = await engine.createExecution(sessionId, { tool: "pair", workload: "noop" });
    await engine.prepare(id);
    expect(await counted(() => engine.run(id))).toEqual({ channels: 3, execs: 3, sftp: 0 });
  });

  it("launches and cancels a running step in 2: the launch followed until the cancel, then its parts stopped on the host", async () => {
    const { id } = await engine.createExecution(sessionId, { tool: "trips", workload: "sleep" });
    await engine.prepare(id);
    const pid = join(homedir(), ".benchwright", id, "run-1", "step.pid");
    const trips = await counted(async () => {
      const attempt = await engine.startStep("run", id);
      for (let i = 0; i < 300 && !existsSync(pid); i++) await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(pid)).toBe(true);
      await engine.cancelExecution(id);
      await expect(engine.waitForStep(attempt)).rejects.toMatchObject({ code: "step_cancelled" });
    });
    expect(trips).toEqual({ channels: 2, execs: 2, sftp: 0 });
  });
});
