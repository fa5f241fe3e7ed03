import { createHmac, timingSafeEqual } from "node:crypto";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plan, PlanRun } from "@benchwright/contract";
import { startSshd, trendToolDefinition, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serversOnPostgres, type BenchwrightProcess, type ServersOnPostgres } from "../test-support/processes.js";

// Issue 25, acceptance 2: two servers share one PostgreSQL. A plan scheduled every minute starts
// one run per minute for three minutes, whichever server is up, each tick once, also while one
// server is stopped and started again between two ticks. Its target is a user's tool whose speed
// and version the test sets through files (each run prints the speed file's number; its
// `scripts.version`, read at prepare as the machines' fact tool_version, prints the version
// file's): after the first tick the test lowers the speed by a fifth and changes the version.
// Plain executions of the same benchmark on the same target, through either server, fill the
// series around the scheduled runs (E-divisive needs five points on each side of a change). The
// series then holds one regression that lists tool_version, and a receiver on loopback (allowed by
// BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS) gets exactly one webhook for it, correctly signed.
// The servers' scheduler runs on a clock the test moves (test-support/scheduler-clock-hook.mjs,
// the engine's `scheduler.clock` option, one clock file for both as the database's clock is one):
// each tick comes when the test sets the clock to it, not after a real minute.

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");
const CLOCK_HOOK = resolve(dirname(fileURLToPath(import.meta.url)), "../test-support/scheduler-clock-hook.mjs");
const ENDED = ["completed", "failed", "cancelled"];
const BEFORE = [100, 102, 97, 101, 99, 103, 98];
const AFTER = [80, 82, 77, 81, 79, 83, 78];

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
/** A contract timestamp (`YYYY-MM-DD HH:MM:SS`, UTC) as a time. */
const at = (timestamp: string) => new Date(`${timestamp.replace(" ", "T")}Z`);

describe("a plan's schedule on two servers sharing PostgreSQL", () => {
  let sshd: SshdHarness;
  let cluster: ServersOnPostgres;
  const dirs: string[] = [];
  let a: BenchwrightProcess;
  let b: BenchwrightProcess;
  let toolDir: string;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let clockFile: string;
  /** The servers' scheduler clock, as milliseconds since the epoch: read, and moved (whole: written beside, then renamed). */
  const clock = {
    now: () => Number(readFileSync(clockFile, "utf8")),
    set: (ms: number) => {
      writeFileSync(`${clockFile}.new`, String(ms));
      renameSync(`${clockFile}.new`, clockFile);
    },
  };

  beforeAll(async () => {
    sshd = await startSshd();
    toolDir = mkdtempSync(join(tmpdir(), "bw-trend-"));
    chmodSync(toolDir, 0o755);
    dirs.push(toolDir);
    writeFileSync(join(toolDir, "speed"), String(BEFORE[0]));
    writeFileSync(join(toolDir, "version"), "1.0");
    const configDir = mkdtempSync(join(tmpdir(), "bw-over-time-config-"));
    dirs.push(configDir);
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    clockFile = join(configDir, "clock");
    clock.set(Date.now());
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    writeFileSync(join(configDir, "benchmarks", "trend.yaml"), trendToolDefinition(toolDir));
    receiver = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    cluster = await serversOnPostgres(
      2,
      {
        BENCHWRIGHT_CONFIG_DIR: configDir,
        // The test's receiver listens on loopback.
        BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS: "true",
        BENCHWRIGHT_TEST_CLOCK_FILE: clockFile,
      },
      ["--import", CLOCK_HOOK],
    );
    [a, b] = cluster.servers;
  }, 90_000);

  afterAll(async () => {
    await cluster?.close();
    receiver?.close();
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

  /** Creates, prepares and runs one execution of the trend tool in `sessionId`, through `server`, at `speed`. */
  const measure = async (server: () => BenchwrightProcess, sessionId: string, speed: number) => {
    writeFileSync(join(toolDir, "speed"), String(speed));
    const created = await call(server(), "POST", `/sessions/${sessionId}/executions/`, { tool: "trend", workload: "steady" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    for (const step of ["prepare", "run"]) {
      const done = await call(server(), "POST", `/executions/${created.body.id}/${step}`);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
    }
  };

  it(
    "starts one run per minute over three minutes, with a server stopped and started again between two ticks; finds the one regression, tells its fact, and sends one signed webhook",
    async () => {
      const hook = await call(a, "POST", "/webhooks/", { url: receiverUrl, events: ["regression"] });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const secret = hook.body.secret as string;
      const created = await call(a, "POST", "/plans/", {
        targets: [{ label: "here", provider: "local", service: "default" }],
        benchmarks: [{ tool: "trend", workload: "steady" }],
        schedule: { cron: "* * * * *" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const plan = created.body as Plan;
      const firstTick = at(plan.schedule!.next_run_at!);
      expect(plan.schedule).toMatchObject({ cron: "* * * * *", timezone: "UTC", missed: "skip", paused: false });
      expect(firstTick.getUTCSeconds()).toBe(0);
      expect(firstTick.getTime() - clock.now()).toBeLessThanOrEqual(60_000);

      // Plain executions of the same benchmark on the same target, at the first speed, through B
      // (A is restarted meanwhile).
      const session = await call(b, "POST", "/sessions/", { provider: "local", service: "default" });
      expect(session.status).toBe(200);
      const sessionId = session.body.id as string;
      const before = (async () => {
        for (const speed of BEFORE) await measure(() => b, sessionId, speed);
      })();

      // The first tick's run, then A goes away and comes back before the second tick.
      clock.set(firstTick.getTime());
      const [first] = await endedRuns(() => a, plan.id, 1, 100_000);
      expect(first).toMatchObject({ trigger: "schedule", state: "completed" });
      expect(at(first.scheduled_for!).getTime()).toBe(firstTick.getTime());
      expect(clock.now()).toBeLessThan(firstTick.getTime() + 50_000);
      expect(await a.stop()).toBe(0);
      a = await cluster.add();
      expect(clock.now()).toBeLessThan(firstTick.getTime() + 60_000);
      // Either server shows the plan's next tick: the second (or, were the restart that slow, the third).
      const nextRunAt = at((await call(b, "GET", `/plans/${plan.id}`)).body.schedule.next_run_at).getTime() - firstTick.getTime();
      expect([60_000, 120_000]).toContain(nextRunAt);

      // The target slows down by a fifth, with a new version of its tool; more plain runs, through
      // both servers, while the clock comes to the second tick and, once its run has ended, the third.
      await before;
      writeFileSync(join(toolDir, "version"), "2.0");
      const ticks = (async () => {
        for (const n of [2, 3]) {
          clock.set(firstTick.getTime() + (n - 1) * 60_000);
          await endedRuns(() => b, plan.id, n, 100_000);
        }
      })();
      for (const [i, speed] of AFTER.entries()) await measure(() => (i % 2 ? a : b), sessionId, speed);
      await ticks;

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

      // One series: the plain executions' points and the scheduled runs' (which name their run).
      const [series, ...others] = (await call(b, "GET", "/series/?tool=trend&metric=speed")).body;
      expect(others).toEqual([]);
      expect(series).toMatchObject({ benchmark: { tool: "trend", workload: "steady" }, target: { provider: "local", service_type: "default" } });
      const points = (await call(a, "GET", `/series/${series.id}/points`)).body as Array<{ plan_run_id: string | null; mean: number }>;
      expect(points).toHaveLength(BEFORE.length + AFTER.length + 3);
      expect(new Set(points.flatMap((p) => p.plan_run_id ?? []))).toEqual(new Set(runs.map((r) => r.id)));

      // Exactly one change, a regression, which lists the tool's version; and one webhook for it.
      // Found as soon as five points follow it, it is refined as the rest are checked.
      const means = points.map((p) => p.mean).join(", ");
      const change = await until(
        `the regression in ${means}`,
        async () => {
          const changes = (await call(a, "GET", `/series/${series.id}/changes`)).body;
          const [found] = changes;
          return changes.length === 1 && found.size < -0.15 && found.facts_changed.length > 0 ? found : undefined;
        },
        60_000,
      );
      // Where the level changed: the first point of the slower runs.
      expect(change, means).toMatchObject({ direction: "regression", state: "open", seq: points.findIndex((p) => p.mean < 90) + 1 });
      expect(change.facts_changed).toContainEqual({ fact: "tool_version", before: ["1.0"], after: ["2.0"] });
      const delivered = await until("the webhook", async () => (received.length > 0 ? received : undefined), 60_000);
      // Past the checks of every point and a retry's first delay: still one change; one delivery
      // per revision of it, as first found and again each time a refinement moved its point or size.
      await new Promise((r) => setTimeout(r, 8_000));
      const [settled, ...more] = (await call(b, "GET", `/series/${series.id}/changes`)).body;
      expect(more).toEqual([]);
      expect(settled).toMatchObject({ id: change.id, seq: points.findIndex((p) => p.mean < 90) + 1 });
      expect((await call(b, "GET", "/changes/")).body).toHaveLength(1);
      const keys = Array.from({ length: settled.revision }, (_, i) => (i === 0 ? `change:${change.id}` : `change:${change.id}:${i + 1}`));
      expect(delivered.map((d) => d.headers["idempotency-key"])).toEqual(keys);
      const { headers, body } = delivered.at(-1)!;
      expect(headers["benchwright-event"]).toBe("regression");
      const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers["benchwright-signature"]));
      expect(signature).not.toBeNull();
      const expected = createHmac("sha256", secret).update(`${signature![1]}.${body}`).digest();
      expect(timingSafeEqual(expected, Buffer.from(signature![2], "hex"))).toBe(true);
      // The last one tells the change where it settled.
      expect(JSON.parse(body)).toMatchObject({
        id: keys.at(-1),
        event: "regression",
        data: { change: { id: change.id, seq: settled.seq, revision: settled.revision } },
      });
      const deliveries = (await call(b, "GET", `/webhooks/${hook.body.id}/deliveries`)).body as Array<{ event_key: string }>;
      expect(deliveries.map((d) => d.event_key).sort()).toEqual([...keys].sort());
      expect(deliveries).toEqual(keys.map(() => expect.objectContaining({ event: "regression", state: "delivered", attempts: 1, last_status: 204 })));

      // Past the tick that would have come: still three runs, each tick fired once (the servers
      // look every 200 ms: ten looks each).
      const nextTick = firstTick.getTime() + 180_000;
      clock.set(nextTick + 8_000);
      await new Promise((r) => setTimeout(r, 2_000));
      expect((await runsOf(a, plan.id)).length).toBe(3);
      // Each tick was fired by one server (the one that recorded its run), once.
      const fired = cluster.servers.flatMap((p) => p.logs).filter((line) => line.includes(`plan ${plan.id}: its tick of`));
      expect(fired).toHaveLength(3);
      expect(new Set(fired.map((line) => /its tick of (\S+) started/.exec(line)?.[1])).size).toBe(3);

      // Resumed from now: its next tick is the next minute, none caught up.
      const resumed = await call(b, "POST", `/plans/${plan.id}/resume`);
      expect(resumed.status).toBe(200);
      expect(resumed.body.schedule.paused).toBe(false);
      const next = at(resumed.body.schedule.next_run_at).getTime();
      expect(next).toBeGreaterThan(clock.now());
      expect(next - clock.now()).toBeLessThanOrEqual(60_000);
      expect((await call(b, "POST", `/plans/${plan.id}/pause`)).status).toBe(200);
      expect((await call(a, "DELETE", `/sessions/${sessionId}`)).status).toBe(204);
      expect((await call(a, "DELETE", `/plans/${plan.id}`)).status).toBe(204);
    },
    7 * 60_000,
  );
});
