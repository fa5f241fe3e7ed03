import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../engine.js";
import type { PlanView } from "../model/plans.js";
import type { PlanRunView } from "../plan-runs/run-view.js";
import { SecretBox } from "../secrets/secret-box.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

// A run its schedule started that fails is told to the engine's onScheduledRunFailed and to the
// webhooks that ask for schedule_failed (a receiver on loopback, allowed), once; a client's run
// that fails is not.
describe("a scheduled run that fails", () => {
  let dataDir: string;
  let engine: Engine;
  const told: Array<{ run: PlanRunView; plan: PlanView }> = [];
  const received: IncomingHttpHeaders[] = [];
  let receiver: Server;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-scheduled-failure-"));
    const configDir = join(dataDir, "config");
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    writeFileSync(
      join(configDir, "benchmarks", "failing.yaml"),
      [
        "id: failing",
        "tool_name: failing",
        "parser: keyvalue",
        "timeout: {prepare: 60, run: 60}",
        "scripts: {}",
        "workloads:",
        "  - id: always",
        "    workload_name: always",
        "    workload_description: Fails",
        "    categories: [test]",
        "    scripts:",
        "      run: |",
        "        echo never; exit 4",
      ].join("\n") + "\n",
    );
    receiver = createServer((req, res) => {
      received.push(req.headers);
      req.resume().on("end", () => res.writeHead(200).end());
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    engine = await Engine.open({
      dataDir,
      configDir,
      inMemory: true,
      pgliteImage: testPgliteImage(),
      secrets: new SecretBox(randomBytes(32)),
      // Its plan ticks every second, which a server allows when told to (BENCHWRIGHT_SCHEDULE_MIN_INTERVAL=1).
      scheduler: { wakeMs: 200, minIntervalMs: 1_000 },
      webhooks: { allowPrivate: true },
      onScheduledRunFailed: (run, plan) => {
        told.push({ run, plan });
      },
    });
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is told once, with the run and its plan, and to the webhooks", async () => {
    await engine.createWebhook({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, events: ["schedule_failed"] });
    const plan = await engine.createPlan({
      targets: [{ label: "here", provider: "local", service: "default" }],
      benchmarks: [{ tool: "failing", workload: "always" }],
      schedule: { cron: "* * * * * *" },
    });
    const end = Date.now() + 60_000;
    while (told.length === 0) {
      if (Date.now() > end) throw new Error("no scheduled run failed");
      await new Promise((r) => setTimeout(r, 100));
    }
    await engine.pausePlan(plan.id);
    const [{ run, plan: toldPlan }] = told;
    expect(run).toMatchObject({ plan_id: plan.id, trigger: "schedule", state: "failed" });
    expect(run.scheduled_for).toEqual(expect.any(String));
    expect(toldPlan).toMatchObject({ id: plan.id, schedule: { cron: "* * * * * *" } });
    // Each failed run told once, once every run has ended: as many as the runs that failed.
    let runs = (await engine.listPlanRuns(plan.id)).items;
    while (runs.some((r) => r.ended === null)) {
      await new Promise((r) => setTimeout(r, 200));
      runs = (await engine.listPlanRuns(plan.id)).items;
    }
    await new Promise((r) => setTimeout(r, 200));
    const failed = runs.filter((r) => r.state === "failed").map((r) => r.id);
    expect(told.map((t) => t.run.id).sort()).toEqual(failed.sort());
    const keys = failed.map((id) => `schedule_failed:${id}`).sort();
    for (let i = 0; i < 100 && received.length < keys.length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(received.map((h) => h["idempotency-key"]).sort()).toEqual(keys);
    expect(new Set(received.map((h) => h["benchwright-event"]))).toEqual(new Set(["schedule_failed"]));

    // A client's run that fails is not the schedule's affair.
    const before = told.length;
    const asked = await engine.startPlanRun(plan.id);
    while ((await engine.getPlanRun(plan.id, asked.id)).ended === null) await new Promise((r) => setTimeout(r, 100));
    expect((await engine.getPlanRun(plan.id, asked.id)).state).toBe("failed");
    await new Promise((r) => setTimeout(r, 300));
    expect(told.length).toBe(before);
    expect(received).toHaveLength(keys.length);
  }, 90_000);
});
