import { storeWithEvents } from "../events/store-with-events.js";
import type { PlanBody } from "../model/plans.js";
import type { Db } from "../store/db.js";
import { migrate } from "../store/migrations.js";
import { openDb } from "../store/open-db.js";
import type { Store } from "../store/store.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

/** A migrated store with its event log: on PostgreSQL at `url` (a test schema's), else on an in-memory PGlite. */
export async function openTestStore(url?: string): Promise<{ db: Db; store: Store }> {
  const db = await openDb(url ? { databaseUrl: url } : { pgliteDir: "memory://", pgliteImage: testPgliteImage() });
  await migrate(db);
  return { db, store: storeWithEvents(db) };
}

/** A plan as stored, on the `local` target `here`: `idle0` once, unless `benchmarks` (and its counts) say otherwise. */
export function testPlanBody(over: Partial<PlanBody> = {}): PlanBody {
  return {
    targets: [{ label: "here", provider: "local", service: "default", class: "local", inline: false }],
    benchmarks: [{ tool: "idle", workload: "idle0", params: {}, zip: false, cells: 1 }],
    concurrency: { per_target: 1, overall: 4 },
    retries: 0,
    on_failure: "continue",
    keep_sessions: false,
    baseline: "here",
    min_difference: 0,
    cells: 1,
    executions: 1,
    ...over,
  } as PlanBody;
}
