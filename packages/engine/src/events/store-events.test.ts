import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema } from "@benchwright/testing";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import type { Store } from "../store/store.js";
import { storeWithEvents } from "./store-with-events.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// Every state change of the store tells of itself in the event log, in the same transaction.

const TIMESTAMP = expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
const test = { tool_id: "idle", workload_id: "idle0", tool_name: "idle", workload_name: "n", workload_description: "d" };

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the store's events on ${kind}`, () => {
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

    async function newSession(): Promise<string> {
      const id = crypto.randomUUID();
      await store.sessions.insert({
        id,
        provider_name: "local",
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "sealed secret",
        state: "active",
        created: new Date(),
      });
      return id;
    }

    it("tells of a session's and an execution's whole life, in the order it happened", async () => {
      const start = await store.events.lastId();
      const sid = await newSession();
      const eid = crypto.randomUUID();
      await store.executions.insert({
        id: eid,
        session_id: sid,
        tool_id: "idle",
        workload_id: "idle0",
        test,
        state: "created",
        created: new Date(),
      });
      const prepare = { from: ["created", "prepare_failed"] as ("created" | "prepare_failed")[], to: "preparing" as const };
      await store.steps.begin(eid, "prepare", prepare, new Date(), (a) => `/logs/prepare-${a}.log`);
      await store.steps.end(
        { execution_id: eid, step: "prepare", attempt: 1 },
        { state: "failed", duration: 1.25, exit_code: 3, error: "no", metrics: null, error_code: "step_failed" },
        { from: "preparing", to: "prepare_failed" },
      );
      await store.steps.begin(eid, "prepare", prepare, new Date(), (a) => `/logs/prepare-${a}.log`);
      await store.steps.end(
        { execution_id: eid, step: "prepare", attempt: 2 },
        { state: "succeeded", duration: 2, exit_code: 0, error: null, metrics: null },
        { from: "preparing", to: "prepared" },
      );
      await store.steps.begin(eid, "run", { from: ["prepared"], to: "running" }, new Date(), (a) => `/logs/run-${a}.log`);
      const metrics = [{ name: "idle_seconds", value: 0.01, unit: "s" }];
      await store.steps.end(
        { execution_id: eid, step: "run", attempt: 1 },
        { state: "succeeded", duration: 0.5, exit_code: 0, error: null, metrics },
        { from: "running", to: "completed" },
      );
      await store.executions.transition(eid, ["completed"], "running");
      await store.sessions.setState(sid, ["active"], "deleting");
      await store.sessions.setState(sid, ["deleting"], "deleted");

      const events = await store.events.read({ session_id: sid }, start, 100);
      const ids = events.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const about = { session_id: sid, execution_id: eid, at: TIMESTAMP };
      expect(events.map(({ id: _id, ...rest }) => rest)).toEqual([
        {
          type: "session.created",
          session_id: sid,
          execution_id: null,
          at: TIMESTAMP,
          data: { provider: "local", service_type: "default" },
        },
        { type: "execution.created", ...about, data: { tool: "idle", workload: "idle0", params: {} } },
        { type: "execution.state", ...about, data: { state: "preparing", previous: "created" } },
        { type: "step.started", ...about, data: { step: "prepare", attempt: 1, started: TIMESTAMP } },
        {
          type: "step.finished",
          ...about,
          data: {
            step: "prepare",
            attempt: 1,
            state: "failed",
            started: TIMESTAMP,
            duration: "1.250",
            exit_code: 3,
            error: { code: "step_failed", detail: "no" },
          },
        },
        { type: "execution.state", ...about, data: { state: "prepare_failed", previous: "preparing" } },
        { type: "execution.state", ...about, data: { state: "preparing", previous: "prepare_failed" } },
        { type: "step.started", ...about, data: { step: "prepare", attempt: 2, started: TIMESTAMP } },
        {
          type: "step.finished",
          ...about,
          data: { step: "prepare", attempt: 2, state: "succeeded", started: TIMESTAMP, duration: "2.000", exit_code: 0 },
        },
        { type: "execution.state", ...about, data: { state: "prepared", previous: "preparing" } },
        { type: "execution.state", ...about, data: { state: "running", previous: "prepared" } },
        { type: "step.started", ...about, data: { step: "run", attempt: 1, started: TIMESTAMP } },
        {
          type: "step.finished",
          ...about,
          data: { step: "run", attempt: 1, state: "succeeded", started: TIMESTAMP, duration: "0.500", exit_code: 0, metrics },
        },
        { type: "execution.state", ...about, data: { state: "completed", previous: "running" } },
        { type: "execution.state", ...about, data: { state: "running", previous: "completed" } },
        { type: "session.state", session_id: sid, execution_id: null, at: TIMESTAMP, data: { state: "deleting" } },
        { type: "session.state", session_id: sid, execution_id: null, at: TIMESTAMP, data: { state: "deleted" } },
      ]);
      // Nothing of the sealed configuration reaches the log.
      expect(JSON.stringify(events)).not.toContain("sealed secret");
    });

    it("tells nothing of a change that did not happen", async () => {
      const sid = await newSession();
      const eid = crypto.randomUUID();
      await store.executions.insert({
        id: eid,
        session_id: sid,
        tool_id: "idle",
        workload_id: "idle0",
        test,
        state: "created",
        created: new Date(),
      });
      const start = await store.events.lastId();
      // Refused moves: the wrong state, a step that is not running, a race lost.
      expect(await store.steps.begin(eid, "run", { from: ["prepared"], to: "running" }, new Date(), () => "/x")).toBeNull();
      expect(await store.executions.transition(eid, ["completed"], "running")).toBeNull();
      expect(await store.sessions.setState(sid, ["deleting"], "deleted")).toBe(false);
      expect(
        await store.steps.end(
          { execution_id: eid, step: "prepare", attempt: 1 },
          { state: "succeeded", duration: 1, exit_code: 0, error: null, metrics: null },
          { from: "preparing", to: "prepared" },
        ),
      ).toBeNull();
      const begun = await Promise.all([1, 2, 3].map(() => store.steps.begin(eid, "prepare", { from: ["created"], to: "preparing" }, new Date(), () => "/x")));
      expect(begun.filter(Boolean)).toHaveLength(1);
      expect((await store.events.read({ execution_id: eid }, start, 100)).map((e) => e.type)).toEqual(["execution.state", "step.started"]);

      // An end of step whose transaction fails leaves its events out with the rest.
      const failing: Db = {
        ...db,
        query: db.query.bind(db),
        transaction: (fn) =>
          db.transaction((tx) =>
            fn({
              ...tx,
              query: async (sql, params) => {
                if (sql.includes("pg_notify(")) throw new Error("the database went away");
                return tx.query(sql, params);
              },
            } as Db),
          ),
      };
      const end = { state: "succeeded" as const, duration: 1, exit_code: 0, error: null, metrics: null };
      await expect(
        storeWithEvents(failing).steps.end({ execution_id: eid, step: "prepare", attempt: 1 }, end, { from: "preparing", to: "prepared" }),
      ).rejects.toThrow("went away");
      expect((await store.events.read({ execution_id: eid }, start, 100)).map((e) => e.type)).toEqual(["execution.state", "step.started"]);
      expect((await store.executions.get(eid))?.state).toBe("preparing");
    });
  });
}
