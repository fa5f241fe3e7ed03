import type { PlanRun } from "@benchwright/contract";
import type request from "supertest";
import { expect } from "vitest";

const ENDED = ["completed", "failed", "cancelled"];

/** Starts a run of the plan and waits for it to end; answers the run as it ended. */
export async function runPlan(api: ReturnType<typeof request>, planId: string, ms = 120_000): Promise<PlanRun> {
  const started = await api.post(`/api/v1/plans/${planId}/runs/`);
  expect(started.status, started.text).toBe(202);
  const runId = (started.body as PlanRun).id;
  const end = Date.now() + ms;
  for (;;) {
    const run = (await api.get(`/api/v1/plans/${planId}/runs/${runId}`).expect(200)).body as PlanRun;
    if (ENDED.includes(run.state)) return run;
    if (Date.now() > end) throw new Error(`run ${runId} is still ${run.state}: ${JSON.stringify(run.progress)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
