import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plan, PlanRun } from "@benchwright/contract";
import { createTestSchema, startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, type BenchwrightProcess } from "../test-support/processes.js";

// Issue 25, acceptance 2 (schedules): two servers share one PostgreSQL; a plan scheduled every
// minute starts one run per minute, whichever server is up, each tick once, also while one
// server is stopped and started again between two ticks. The test is mostly waiting for ticks.

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");
const ENDED = ["completed", "failed", "cancelled"];
/** A contract timestamp (`YYYY-MM-DD HH:MM:SS`, UTC) as a time. */
const at = (timestamp: string) => new Date(`${timestamp.replace(" ", "T")}Z`);

describe("a plan's schedule on two servers sharing PostgreSQL", () => {
  let sshd: SshdHarness;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  const dirs: string[] = [];
  const processes: BenchwrightProcess[] = [];
  let env: Record<string, string>;
  let a: BenchwrightProcess;
  let b: BenchwrightProcess;

  const start = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-schedules-"));
    dirs.push(dataDir);
    const p = await startProcess("serve", { ...env, BENCHWRIGHT_DATA_DIR: dataDir });
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    [sshd, schema] = await Promise.all([startSshd(), createTestSchema()]);
    env = { DATABASE_URL: schema.url, BENCHWRIGHT_SECRET_KEY: randomBytes(32).toString("base64"), BENCHWRIGHT_CONFIG_DIR: REPO_CONFIG };
    // One after the other: the first migrates the schema.
    a = await start();
    b = await start();
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await schema?.drop();
    await sshd?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const call = async (server: BenchwrightProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(server.api + path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const lab = () => ({
    label: "lab",
    config: {
      provider: { class: "existing-vm", name: "lab" },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  });
  const runsOf = async (server: BenchwrightProcess, planId: string) => (await call(server, "GET", `/plans/${planId}/runs/`)).body as PlanRun[];
  const until = async <T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  };
  /** The plan's runs once there are `n`, each ended. */
  const endedRuns = (server: () => BenchwrightProcess, planId: string, n: number, ms: number) =>
    until(
      `${n} ended runs`,
      async () => {
        const runs = await runsOf(server(), planId);
        return runs.length >= n && runs.every((r) => ENDED.includes(r.state)) ? runs : undefined;
      },
      ms,
    );

  it("refuses a bad cron or time zone, and pausing a plan without a schedule", async () => {
    const bad = await call(a, "POST", "/plans/", {
      targets: [lab()],
      benchmarks: [{ tool: "idle", workload: "idle0" }],
      schedule: { cron: "61 * * * *", timezone: "Mars/Olympus_Mons" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["/body/schedule/cron", "/body/schedule/timezone"]);
    expect((await call(a, "GET", "/plans/")).body).toEqual([]);

    const plain = await call(a, "POST", "/plans/", { targets: [lab()], benchmarks: [{ tool: "idle", workload: "idle0" }] });
    expect(plain.status).toBe(201);
    expect(plain.body.schedule).toBeNull();
    for (const action of ["pause", "resume"]) {
      const refused = await call(b, "POST", `/plans/${plain.body.id}/${action}`);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("wrong_state");
    }
    expect((await call(b, "DELETE", `/plans/${plain.body.id}`)).status).toBe(204);
  });

  it(
    "starts one run per minute over three minutes, with a server stopped and started again between two ticks; pauses and resumes",
    async () => {
      const created = await call(a, "POST", "/plans/", {
        targets: [lab()],
        benchmarks: [{ tool: "idle", workload: "idle0" }],
        schedule: { cron: "* * * * *" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const plan = created.body as Plan;
      const firstTick = at(plan.schedule!.next_run_at!);
      expect(plan.schedule).toMatchObject({ cron: "* * * * *", timezone: "UTC", missed: "skip", paused: false });
      expect(firstTick.getUTCSeconds()).toBe(0);
      expect(firstTick.getTime() - Date.now()).toBeLessThanOrEqual(60_000);

      // The first tick's run, then A goes away and comes back before the second tick.
      const [first] = await endedRuns(() => a, plan.id, 1, 100_000);
      expect(first).toMatchObject({ trigger: "schedule", state: "completed" });
      expect(at(first.scheduled_for!).getTime()).toBe(firstTick.getTime());
      expect(Date.now()).toBeLessThan(firstTick.getTime() + 50_000);
      expect(await a.stop()).toBe(0);
      a = await start();
      expect(Date.now()).toBeLessThan(firstTick.getTime() + 60_000);
      // Either server shows the plan's next tick: the second (or, were the restart that slow, the third).
      const nextRunAt = at((await call(b, "GET", `/plans/${plan.id}`)).body.schedule.next_run_at).getTime() - firstTick.getTime();
      expect([60_000, 120_000]).toContain(nextRunAt);

      const runs = await endedRuns(() => b, plan.id, 3, 150_000);
      // Paused at once: no fourth run.
      const paused = await call(a, "POST", `/plans/${plan.id}/pause`);
      expect(paused.status).toBe(200);
      expect(paused.body.schedule).toMatchObject({ paused: true, next_run_at: null });
      expect(runs.map((r) => [r.trigger, r.state, at(r.scheduled_for!).getTime() - firstTick.getTime()])).toEqual([
        ["schedule", "completed", 0],
        ["schedule", "completed", 60_000],
        ["schedule", "completed", 120_000],
      ]);
      // Past the tick that would have come: still three, each tick fired once.
      const nextTick = firstTick.getTime() + 180_000;
      await new Promise((r) => setTimeout(r, Math.max(0, nextTick + 8_000 - Date.now())));
      expect((await runsOf(a, plan.id)).length).toBe(3);
      // Each tick was fired by one server (the one that recorded its run), once.
      const fired = processes.flatMap((p) => p.logs).filter((line) => line.includes(`plan ${plan.id}: its tick of`));
      expect(fired).toHaveLength(3);
      expect(new Set(fired.map((line) => /its tick of (\S+) started/.exec(line)?.[1])).size).toBe(3);

      // Resumed from now: its next tick is the next minute, none caught up.
      const resumed = await call(b, "POST", `/plans/${plan.id}/resume`);
      expect(resumed.status).toBe(200);
      expect(resumed.body.schedule.paused).toBe(false);
      const next = at(resumed.body.schedule.next_run_at).getTime();
      expect(next).toBeGreaterThan(Date.now());
      expect(next - Date.now()).toBeLessThanOrEqual(60_000);
      expect((await call(b, "POST", `/plans/${plan.id}/pause`)).status).toBe(200);
      expect((await call(a, "DELETE", `/plans/${plan.id}`)).status).toBe(204);
    },
    6 * 60_000,
  );
});
