import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "./db.js";
import { migrate } from "./migrations.js";
import { Store } from "./store.js";

import { createTestSchema } from "../testing/postgres.js";

// The same schema must work on the embedded database and on a real PostgreSQL server.

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the store on ${kind}`, () => {
    let db: Db;
    let store: Store;
    let dropSchema = async () => {};

    beforeAll(async () => {
      if (kind === "pglite") db = await openDb({ pgliteDir: "memory://" });
      else {
        const schema = await createTestSchema();
        dropSchema = schema.drop;
        db = await openDb({ databaseUrl: schema.url });
      }
      await migrate(db);
      store = new Store(db);
    });

    afterAll(async () => {
      await db.close();
      await dropSchema();
    });

    it("applies migrations once", async () => {
      expect(await migrate(db)).toEqual([]);
      expect(await db.query<{ id: number }>("SELECT id FROM schema_migrations")).toEqual([{ id: 1 }]);
    });

    it("moves an execution through its states atomically, one winner per race", async () => {
      const sessionId = crypto.randomUUID();
      await store.insertSession({
        id: sessionId, provider_name: "local", service_type: "default", provider_class: "local",
        driver: null, region: null, config_sealed: "x", state: "active", created: new Date(),
      });
      const id = crypto.randomUUID();
      const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };
      await store.insertExecution({ id, session_id: sessionId, tool_id: "idle", workload_id: "idle0", test, state: "created", created: new Date() });
      const results = await Promise.all([1, 2, 3].map(() => store.transitionExecution(id, ["created"], "preparing")));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.getExecution(id))?.state).toBe("preparing");
      expect(await store.transitionExecution(id, ["created"], "preparing")).toBeNull();

      const first = await store.startStep(id, "prepare", new Date(), (a) => `/logs/prepare-${a}.log`);
      const second = await store.startStep(id, "prepare", new Date(), (a) => `/logs/prepare-${a}.log`);
      expect([first.attempt, second.attempt]).toEqual([1, 2]);
      expect(second.log_file).toBe("/logs/prepare-2.log");
      await store.finishStep(id, "prepare", 2, { state: "succeeded", duration: 1.5, exit_code: 0, error: null, metrics: null });
      const steps = await store.listSteps([id]);
      expect(steps.map((s) => [s.attempt, s.state, s.duration])).toEqual([[1, "running", null], [2, "succeeded", 1.5]]);
      expect((await store.runningSteps()).some((s) => s.execution_id === id && s.attempt === 1)).toBe(true);
    });

    it("records a host key on first use and never replaces it", async () => {
      const sessionId = crypto.randomUUID();
      await store.insertSession({
        id: sessionId, provider_name: "p", service_type: "s", provider_class: "existing-vm",
        driver: null, region: null, config_sealed: "x", state: "active", created: new Date(),
      });
      expect(await store.getHostKey(sessionId, "vm1")).toBeUndefined();
      await store.setHostKey(sessionId, "vm1", "SHA256:first");
      await store.setHostKey(sessionId, "vm1", "SHA256:second");
      expect(await store.getHostKey(sessionId, "vm1")).toBe("SHA256:first");
      await store.upsertMachine({ session_id: sessionId, id: "vm1", ip: "10.0.0.1", platform: "debian_12", facts: { cpu_count: 2 } });
      expect(await store.getHostKey(sessionId, "vm1")).toBe("SHA256:first");
    });

    it("keeps a ledger of provider resources until they are destroyed", async () => {
      const sessionId = crypto.randomUUID();
      await store.recordResource({ session_id: sessionId, provider_name: "aws", kind: "instance", resource_id: "i-1", meta_sealed: "m" });
      await store.recordResource({ session_id: sessionId, provider_name: "aws", kind: "key_pair", resource_id: "k-1", meta_sealed: "m" });
      await store.markResourceDestroyed(sessionId, "instance", "i-1");
      expect((await store.liveResources(sessionId)).map((r) => r.resource_id)).toEqual(["k-1"]);
    });
  });
}
