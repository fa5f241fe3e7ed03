import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Provenance } from "@benchwright/contract";
import { createTestSchema } from "@benchwright/testing";
import type { Db } from "./db.js";
import { openDb } from "./open-db.js";
import { migrate, MIGRATIONS } from "./migrations.js";
import { storeWithEvents } from "../events/store-with-events.js";
import type { Store } from "./store.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// The same schema must work on the embedded database and on a real PostgreSQL server.

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the store on ${kind}`, () => {
    let db: Db;
    let store: Store;
    let dropSchema = async () => {};

    beforeAll(async () => {
      if (kind === "pglite") db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
      else {
        const schema = await createTestSchema();
        dropSchema = schema.drop;
        db = await openDb({ databaseUrl: schema.url });
      }
      await migrate(db);
      store = storeWithEvents(db);
    });

    afterAll(async () => {
      await db.close();
      await dropSchema();
    });

    it("applies migrations once", async () => {
      expect(await migrate(db)).toEqual([]);
      expect(await db.query<{ id: number }>("SELECT id FROM schema_migrations ORDER BY id")).toEqual(MIGRATIONS.map((m) => ({ id: m.id })));
    });

    it("keeps an execution's parameter values as given, and {} for one created without", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      const test = { tool_id: "idle", workload_id: "idle5", tool_name: "idle", workload_name: "n", workload_description: "d" };
      const params = { seconds: 0.5, threads: 4, text: "$(x) 'y'", on: false };
      const [withParams, without] = [crypto.randomUUID(), crypto.randomUUID()];
      await store.executions.insert({
        id: withParams,
        session_id: sessionId,
        tool_id: "idle",
        workload_id: "idle5",
        test,
        params,
        state: "created",
        created: new Date(),
      });
      await store.executions.insert({
        id: without,
        session_id: sessionId,
        tool_id: "idle",
        workload_id: "idle5",
        test,
        state: "created",
        created: new Date(),
      });
      expect((await store.executions.get(withParams))?.params).toEqual(params);
      expect((await store.executions.get(without))?.params).toEqual({});
      expect((await store.executions.withSteps("all")).filter((e) => e.session_id === sessionId).map((e) => e.params)).toEqual([params, {}]);
    });

    it("moves an execution through its states atomically, one winner per race", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      const id = crypto.randomUUID();
      const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };
      await store.executions.insert({
        id,
        session_id: sessionId,
        tool_id: "idle",
        workload_id: "idle0",
        test,
        state: "created",
        created: new Date(),
      });
      const results = await Promise.all([1, 2, 3].map(() => store.executions.transition(id, ["created"], "preparing")));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.executions.get(id))?.state).toBe("preparing");
      expect(await store.executions.transition(id, ["created"], "preparing")).toBeNull();
      await store.executions.transition(id, ["preparing"], "prepare_failed");

      const move = { from: ["created", "prepare_failed"] as const, to: "preparing" as const };
      const begun = await Promise.all(
        [1, 2].map(() => store.steps.begin(id, "prepare", { from: [...move.from], to: move.to }, new Date(), (a) => `/logs/prepare-${a}.log`)),
      );
      expect(begun.filter(Boolean)).toHaveLength(1);
      const first = begun.find(Boolean)!;
      expect(first.attempt).toBe(1);
      expect(
        await store.steps.end(
          { execution_id: id, step: "prepare", attempt: 1 },
          { state: "failed", duration: 1, exit_code: 3, error: "no", metrics: null },
          { from: "preparing", to: "prepare_failed" },
        ),
      ).toMatchObject({ state: "failed", attempt: 1, exit_code: 3, error: "no" });
      // Ending an attempt twice changes nothing the second time.
      expect(
        await store.steps.end(
          { execution_id: id, step: "prepare", attempt: 1 },
          { state: "succeeded", duration: 9, exit_code: 0, error: null, metrics: null },
          { from: "preparing", to: "prepared" },
        ),
      ).toBeNull();
      const second = await store.steps.begin(id, "prepare", { from: [...move.from], to: move.to }, new Date(), (a) => `/logs/prepare-${a}.log`);
      expect(second?.attempt).toBe(2);
      expect(second?.log_file).toBe("/logs/prepare-2.log");
      expect((await store.steps.running()).some((s) => s.execution_id === id && s.attempt === 2)).toBe(true);
      await store.steps.end(
        { execution_id: id, step: "prepare", attempt: 2 },
        { state: "succeeded", duration: 1.5, exit_code: 0, error: null, metrics: null },
        { from: "preparing", to: "prepared" },
      );
      const steps = await store.steps.list([id]);
      expect(steps.map((s) => [s.attempt, s.state, s.duration])).toEqual([
        [1, "failed", 1],
        [2, "succeeded", 1.5],
      ]);
      expect((await store.executions.get(id))?.state).toBe("prepared");
    });

    it("begins a step leased to the process that begins it: nobody else claims it until the lease runs out", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      const [leased, free] = [crypto.randomUUID(), crypto.randomUUID()];
      const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };
      for (const id of [leased, free])
        await store.executions.insert({
          id,
          session_id: sessionId,
          tool_id: "idle",
          workload_id: "idle0",
          test,
          state: "prepared",
          created: new Date(),
        });
      const run = { from: ["prepared" as const], to: "running" as const };
      const step = await store.steps.begin(leased, "run", run, new Date(), () => "/x", { owner: "a", leaseMs: 400 });
      expect(step).toMatchObject({ owner: "a", state: "running" });
      expect(new Date(step!.lease_until!).getTime()).toBeGreaterThan(Date.now());
      const key = { execution_id: leased, step: "run" as const, attempt: 1 };
      expect(await store.leases.claim(key, "b", 10_000)).toBeNull();
      expect((await store.leases.orphaned(1000)).some((k) => k.execution_id === leased)).toBe(false);
      // Begun without a lease: anyone's at once.
      expect(await store.steps.begin(free, "run", run, new Date(), () => "/x")).toMatchObject({ owner: null, lease_until: null });
      expect((await store.leases.orphaned(1000)).some((k) => k.execution_id === free)).toBe(true);
      // Its owner renews it; past its end another worker takes it over.
      expect(await store.leases.renew(key, "a", 400)).toEqual({ sessionActive: true, cancelRequested: null });
      await new Promise((r) => setTimeout(r, 500));
      expect(await store.leases.claim(key, "b", 10_000)).toMatchObject({ owner: "b" });
    });

    it("records a cancel request on a running step for its lease holder to read, keeping the first one's words", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      const id = crypto.randomUUID();
      const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };
      await store.executions.insert({ id, session_id: sessionId, tool_id: "idle", workload_id: "idle0", test, state: "prepared", created: new Date() });
      await store.steps.begin(id, "run", { from: ["prepared"], to: "running" }, new Date(), () => "/x", { owner: "a", leaseMs: 10_000 });
      const key = { execution_id: id, step: "run" as const, attempt: 1 };
      expect(await store.steps.requestCancel(key, "cancelled at first")).toMatchObject({ state: "running", cancel_requested: "cancelled at first" });
      expect(await store.steps.requestCancel(key, "cancelled at second")).toMatchObject({ cancel_requested: "cancelled at first" });
      // The holder learns of it as it renews, and so does one that records a part's handle.
      expect(await store.leases.renew(key, "a", 10_000)).toEqual({ sessionActive: true, cancelRequested: "cancelled at first" });
      const handle = { machine_id: "m", pgid: null, machine_log_start: 0, metrics: [] };
      expect(await store.leases.recordHandle(key, "a", handle)).toEqual({ sessionActive: true, cancelRequested: "cancelled at first" });
      // An ended step is no longer cancelled.
      const end = { state: "failed" as const, duration: 1, exit_code: null, error: "x", metrics: null };
      await store.steps.end({ execution_id: id, step: "run", attempt: 1 }, end, { from: "running", to: "run_failed" }, "a");
      expect(await store.steps.requestCancel(key, "too late")).toBeNull();
      expect((await store.steps.get(key))?.cancel_requested).toBe("cancelled at first");
    });

    it("records a run's provenance with its first handle, and a step that has one keeps it (a takeover's handle changes nothing)", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      const id = crypto.randomUUID();
      const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };
      await store.executions.insert({ id, session_id: sessionId, tool_id: "idle", workload_id: "idle0", test, state: "prepared", created: new Date() });
      await store.steps.begin(id, "run", { from: ["prepared"], to: "running" }, new Date(), () => "/x", { owner: "a", leaseMs: 10_000 });
      const key = { execution_id: id, step: "run" as const, attempt: 1 };
      const first = { engine_version: "first" } as unknown as Provenance;
      const handle = { machine_id: "m", pgid: null, machine_log_start: 0, metrics: [] };
      await store.leases.recordHandle(key, "a", handle);
      expect((await store.steps.get(key))?.provenance).toBeNull();
      await store.leases.recordHandle(key, "a", { ...handle, provenance: first });
      expect((await store.steps.get(key))?.provenance).toEqual(first);
      await store.leases.recordHandle(key, "a", { ...handle, provenance: { engine_version: "second" } as unknown as Provenance });
      await store.leases.recordHandle(key, "a", handle);
      expect((await store.steps.get(key))?.provenance).toEqual(first);
    });

    it("ends a step in one transaction: when the execution's write fails, the step stays running", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      const id = crypto.randomUUID();
      const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };
      await store.executions.insert({
        id,
        session_id: sessionId,
        tool_id: "idle",
        workload_id: "idle0",
        test,
        state: "prepared",
        created: new Date(),
      });
      await store.steps.begin(id, "run", { from: ["prepared"], to: "running" }, new Date(), (a) => `/logs/run-${a}.log`);
      // The same database, with the last statement of the end-of-step transaction failing.
      const failing: Db = {
        ...db,
        query: db.query.bind(db),
        transaction: (fn) =>
          db.transaction((tx) =>
            fn({
              ...tx,
              query: async (sql, params) => {
                if (sql.startsWith("UPDATE executions")) throw new Error("the database went away");
                return tx.query(sql, params);
              },
            } as Db),
          ),
      };
      const metrics = [{ name: "idle_seconds", value: 0, unit: "s" }];
      await expect(
        storeWithEvents(failing).steps.end(
          { execution_id: id, step: "run", attempt: 1 },
          { state: "succeeded", duration: 1, exit_code: 0, error: null, metrics },
          { from: "running", to: "completed" },
        ),
      ).rejects.toThrow("went away");
      const execution = await store.executions.get(id);
      expect(execution?.state).toBe("running");
      expect(execution?.metrics).toEqual([]);
      expect((await store.steps.list([id])).map((s) => s.state)).toEqual(["running"]);
      // Recorded again once the database is back, the whole outcome lands.
      expect(
        await store.steps.end(
          { execution_id: id, step: "run", attempt: 1 },
          { state: "succeeded", duration: 1, exit_code: 0, error: null, metrics },
          { from: "running", to: "completed" },
        ),
      ).toMatchObject({ state: "succeeded", step: "run", attempt: 1 });
      expect(await store.executions.get(id)).toMatchObject({ state: "completed", metrics });
    });

    it("records a host key on first use and never replaces it", async () => {
      const sessionId = crypto.randomUUID();
      await store.sessions.insert({
        id: sessionId,
        provider_name: "p",
        service_type: "s",
        provider_class: "existing-vm",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      expect(await store.machines.hostKey(sessionId, "vm1")).toBeUndefined();
      await store.machines.setHostKey(sessionId, "vm1", "SHA256:first");
      await store.machines.setHostKey(sessionId, "vm1", "SHA256:second");
      expect(await store.machines.hostKey(sessionId, "vm1")).toBe("SHA256:first");
      await store.machines.upsert({ session_id: sessionId, id: "vm1", ip: "10.0.0.1", platform: "debian_12", facts: { cpu_count: 2 } });
      expect(await store.machines.hostKey(sessionId, "vm1")).toBe("SHA256:first");
    });

    it("keeps a ledger of provider resources until they are destroyed", async () => {
      const sessionId = crypto.randomUUID();
      await store.resources.record({ session_id: sessionId, provider_name: "aws", kind: "instance", resource_id: "i-1", meta_sealed: "m" });
      await store.resources.record({ session_id: sessionId, provider_name: "aws", kind: "key_pair", resource_id: "k-1", meta_sealed: "m" });
      await store.resources.markDestroyed(sessionId, "instance", "i-1");
      expect((await store.resources.live(sessionId)).map((r) => r.resource_id)).toEqual(["k-1"]);
    });
  });
}
