import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../engine.js";
import { SecretBox } from "../secrets/secret-box.js";
import { engineStore } from "../test-access.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

// Issue 34, point 16: a run's steps stopped by its cancel ended as failed (`step_failed`, "the
// session was deleted while the step ran"), so a cancelled run's executions looked failed. Its
// cancel now asks them to cancel before it deletes their sessions: they end `step_cancelled`.
describe("a plan run cancelled while a cell's step runs", () => {
  let dataDir: string;
  let engine: Engine;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-run-cancel-steps-"));
    const configDir = join(dataDir, "config");
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    engine = await Engine.open({ dataDir, configDir, inMemory: true, pgliteImage: testPgliteImage(), secrets: new SecretBox(randomBytes(32)) });
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("ends that step cancelled, saying its plan run was cancelled", async () => {
    const plan = await engine.createPlan({
      targets: [{ label: "here", provider: "local", service: "default" }],
      benchmarks: [{ tool: "idle", workload: "idle60", params: { seconds: 100 } }],
    } as Parameters<Engine["createPlan"]>[0]);
    const run = await engine.startPlanRun(plan.id);
    const until = async <T>(read: () => Promise<T | undefined>): Promise<T> => {
      for (let i = 0; i < 600; i++) {
        const value = await read();
        if (value) return value;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("timed out");
    };
    const step = await until(async () => (await engineStore(engine).steps.running()).find((s) => s.step === "run"));
    await engine.cancelPlanRun(plan.id, run.id);
    const ended = await until(async () => {
      const now = await engine.getPlanRun(plan.id, run.id);
      return now.state === "cancelled" ? now : undefined;
    });
    expect(ended.cells.map((cell) => cell.state)).toEqual(["cancelled"]);
    const [stopped] = await engineStore(engine)
      .steps.list([step.execution_id])
      .then((steps) => steps.filter((s) => s.step === "run"));
    expect(stopped).toMatchObject({ state: "failed", error_code: "step_cancelled" });
    expect(stopped.error).toContain(`its plan run ${run.id} was cancelled`);
  }, 60_000);
});
