import { randomUUID } from "node:crypto";
import { openTestStore, testPlanBody } from "../test-support/test-store.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import type { Store } from "../store/store.js";
import { PlanRuns } from "./plan-runs.js";

// Whose a run's sessions will be (its driver makes them as the run's `started_by`'s, shared: the
// server's principals.test.ts runs one): recorded when the run is.
describe("a plan run's starter", () => {
  let db: Db;
  let store: Store;
  beforeAll(async () => {
    ({ db, store } = await openTestStore());
  }, 60_000);
  afterAll(() => db.close());

  const body = testPlanBody();

  async function plan(createdBy?: string) {
    const id = randomUUID();
    await store.plans.insert({ id, created: new Date(), body, inline_sealed: null, created_by: createdBy });
    return (await store.plans.get(id))!;
  }
  const startedBy = async (runId: string) => (await db.query<{ started_by: string }>("SELECT started_by FROM plan_runs WHERE id = $1", [runId]))[0].started_by;
  /** A schedule's tick that wins: the run is recorded in the tick's transaction. */
  const wins = async (record: (tx: Db) => Promise<void>) => {
    await db.transaction(record);
    return true;
  };

  it("is the principal who asked, or the bootstrap admin when nobody is named", async () => {
    const made = await plan("ada");
    expect(await startedBy((await new PlanRuns(store).start(made.id, { startedBy: "alex" })).id)).toBe("alex");
    expect(await startedBy((await new PlanRuns(store).start(made.id)).id)).toBe("bootstrap");
  });

  it("is the plan's maker for a scheduled run, or the bootstrap admin for a plan from before makers were recorded", async () => {
    const made = await plan("ada");
    expect(made.created_by).toBe("ada");
    expect(await startedBy((await new PlanRuns(store).startScheduled(made, new Date(), wins))!.id)).toBe("ada");
    const old = await plan();
    expect(old.created_by).toBeNull();
    expect(await startedBy((await new PlanRuns(store).startScheduled(old, new Date(), wins))!.id)).toBe("bootstrap");
  });
});
