import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Db } from "../store/db.js";
import type { Store } from "../store/store.js";
import { openTestStore, testPlanBody } from "../test-support/test-store.js";
import { PlanRuns } from "./plan-runs.js";
import { conductRun, type RunCollaborators } from "./run-conduct.js";

// Issue 34, point 4: cancelling a 10,000-cell run on the embedded database took 10 minutes and
// stalled the server (each pending cell cancelled in a transaction of its own that counted all
// the run's cells). The pending cells are now cancelled set-based, in batches.
describe("a run cancelled before its cells began", () => {
  let db: Db;
  let store: Store;
  beforeAll(async () => {
    ({ db, store } = await openTestStore());
  }, 60_000);
  afterAll(() => db.close());

  it("cancels its pending cells in batches, each told by its own progress event, counted as it ended", async () => {
    const n = 23;
    const seconds = Array.from({ length: n }, (_, i) => i);
    const body = testPlanBody({
      benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds }, zip: false, cells: n }] as never,
      cells: n,
      executions: n,
    });
    const planId = randomUUID();
    await store.plans.insert({ id: planId, created: new Date(), body, inline_sealed: null });
    const firstEvent = await store.events.lastId();
    const run = await new PlanRuns(store).start(planId);
    expect(await store.planRuns.cancel(planId, run.id)).toBe("cancelling");
    const claimed = (await store.planRuns.claim(run.id, "driver", 60_000))!;

    const batches: number[] = [];
    const cancelPending = store.planRuns.cancelPending.bind(store.planRuns);
    store.planRuns.cancelPending = async (...args) => {
      const cells = await cancelPending(...args);
      batches.push(cells.length);
      return cells;
    };
    const never = () => Promise.reject(new Error("no cell begins in a cancelled run"));
    const c: RunCollaborators = {
      store,
      secrets: {} as SecretBox,
      createSession: never,
      deleteSession: async () => {},
      createExecution: never,
      startStep: never,
      waitForStep: never,
      log: () => {},
      cancelBatch: 5,
    };
    await conductRun(c, { runId: run.id, owner: "driver", signal: new AbortController().signal, cancelling: false }, claimed);

    expect(batches).toEqual([5, 5, 5, 5, 3, 0]);
    const ended = (await store.planRuns.get(planId, run.id))!;
    expect(ended.state).toBe("cancelled");
    expect(ended.cells.map((cell) => [cell.state, cell.error, cell.attempts])).toEqual(Array(n).fill(["cancelled", "the run was cancelled", 0]));
    const events = await store.events.read({ types: ["plan_run.progress", "plan_run.ended"] }, firstEvent, 1000);
    const progress = events
      .filter((e) => e.type === "plan_run.progress")
      .map((e) => e.data as { cell: number; state: string; progress: { pending: number; cancelled: number } });
    expect(progress.map((d) => [d.cell, d.state, d.progress.cancelled, d.progress.pending])).toEqual(seconds.map((_, i) => [i, "cancelled", i + 1, n - i - 1]));
    expect(events.at(-1)).toMatchObject({ type: "plan_run.ended", data: { state: "cancelled", progress: { total: n, cancelled: n, pending: 0 } } });
  });
});
