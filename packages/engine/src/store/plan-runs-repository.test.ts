import { randomUUID } from "node:crypto";
import { openTestStore, testPlanBody } from "../test-support/test-store.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCells } from "../plan-runs/run-cells.js";
import type { Db } from "./db.js";
import type { Store } from "./store.js";

// A run is driven by whoever holds its lease; every write of a driver that lost it changes nothing.
describe("the plan runs' leases", () => {
  let db: Db;
  let store: Store;
  beforeAll(async () => {
    ({ db, store } = await openTestStore());
  }, 60_000);
  afterAll(() => db.close());

  const body = testPlanBody({
    benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [1, 2] }, zip: false, cells: 2 }],
    cells: 2,
    executions: 2,
  });

  async function newRun() {
    const planId = randomUUID();
    await store.plans.insert({ id: planId, created: new Date(), body, inline_sealed: null });
    const id = randomUUID();
    await store.planRuns.insert(
      { id, plan_id: planId, state: "pending", created: new Date(), started: null, ended: null, sessions: { here: randomUUID() } },
      runCells(id, body),
    );
    return { planId, id };
  }

  it("lets one driver claim a run, and none other until its lease runs out", async () => {
    const { id } = await newRun();
    expect(await store.planRuns.unheld(100)).toContain(id);
    expect((await store.planRuns.claim(id, "a", 60_000))?.owner).toBe("a");
    expect(await store.planRuns.claim(id, "b", 60_000)).toBeNull();
    expect(await store.planRuns.unheld(100)).not.toContain(id);
    expect(await store.planRuns.renew(id, "b", 60_000)).toBeNull();
    expect(await store.planRuns.renew(id, "a", 1)).toBe("pending");
    await new Promise((r) => setTimeout(r, 20));
    // Run out: another takes it, and the first one's writes change nothing.
    expect((await store.planRuns.claim(id, "b", 60_000))?.owner).toBe("b");
    expect(await store.planRuns.updateCell(id, 0, "a", { state: "preparing", attempts: 1 })).toBeNull();
    expect(await store.planRuns.move(id, "a", { from: ["pending"], to: "running", stamp: "started" })).toBeNull();
    expect((await store.planRuns.updateCell(id, 0, "b", { state: "preparing", attempts: 1 }))?.state).toBe("preparing");
    expect((await store.planRuns.move(id, "b", { from: ["pending"], to: "running", stamp: "started" }))?.started).toBeInstanceOf(Date);
  });

  it("cancels a run not ended, refuses to delete its plan meanwhile, and leaves an ended run as it was", async () => {
    const { planId, id } = await newRun();
    expect(await store.plans.delete(planId)).toBe("busy");
    expect(await store.planRuns.cancel(planId, id)).toBe("cancelling");
    expect(await store.planRuns.claim(id, "c", 60_000)).not.toBeNull();
    expect(await store.planRuns.move(id, "c", { from: ["running", "cancelling"], to: "cancelled", stamp: "ended" })).not.toBeNull();
    expect(await store.planRuns.cancel(planId, id)).toBe("cancelled");
    expect(await store.planRuns.claim(id, "d", 60_000)).toBeNull();
    expect(await store.plans.delete(planId)).toBe("deleted");
    expect(await store.planRuns.get(planId, id)).toBeUndefined();
    expect(await store.plans.delete(planId)).toBe("missing");
  });
});
