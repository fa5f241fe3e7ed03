import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema } from "@benchwright/testing";
import { executionCursor, sessionCursor } from "../lists/cursor.js";
import { executionWhereOf, pageOf, sessionWhereOf, type ExecutionListQuery, type SessionListQuery } from "../lists/list-query.js";
import { metricRowsOf } from "../lists/metric-rows.js";
import type { Db } from "./db.js";
import { openDb } from "./open-db.js";
import { migrate } from "./migrations.js";
import { storeWithEvents } from "../events/store-with-events.js";
import type { Store } from "./store.js";
import type { ExecutionState } from "../model/executions.js";
import type { SessionState } from "../model/sessions.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// The lists' filters and pages are conditions of the queries: the same on the embedded
// database and on PostgreSQL, and exactly the records a filter in memory keeps.

interface SessionFixture {
  id: string;
  provider: string;
  state: SessionState;
  /** As the database holds it: two share a millisecond, told apart by their microseconds. */
  created: string;
}
interface ExecutionFixture {
  id: string;
  session: number;
  tool: string;
  workload: string;
  state: ExecutionState;
  created: string;
}

const SESSIONS: SessionFixture[] = [
  { provider: "local", state: "active", created: "2026-01-01 00:00:00+00" },
  { provider: "aws", state: "active", created: "2026-01-02 00:00:00+00" },
  { provider: "local", state: "deleting", created: "2026-01-03 00:00:00+00" },
  { provider: "aws", state: "deleted", created: "2026-01-04 00:00:00+00" },
  { provider: "local", state: "active", created: "2026-01-05 00:00:00.000200+00" },
  { provider: "local", state: "active", created: "2026-01-05 00:00:00.000100+00" },
].map((s) => ({ ...s, id: randomUUID() }) as SessionFixture);

const EXECUTIONS: ExecutionFixture[] = [
  { session: 0, tool: "idle", workload: "idle0", state: "completed", created: "2026-02-01T00:00:00Z" },
  { session: 0, tool: "idle", workload: "failing", state: "run_failed", created: "2026-02-02T00:00:00Z" },
  { session: 1, tool: "sysbench", workload: "cpu_10000", state: "completed", created: "2026-02-04T00:00:00Z" },
  // Created before the one above, yet after it in the lists: they follow creation order (seq).
  { session: 1, tool: "idle", workload: "idle0", state: "created", created: "2026-02-03T00:00:00Z" },
  { session: 2, tool: "sysbench", workload: "cpu_10000", state: "prepared", created: "2026-02-05T00:00:00Z" },
  { session: 3, tool: "idle", workload: "idle0", state: "completed", created: "2026-02-06T00:00:00Z" },
  { session: 4, tool: "fio", workload: "randread", state: "completed", created: "2026-02-07T00:00:00Z" },
  { session: 5, tool: "idle", workload: "idle5", state: "running", created: "2026-02-08T00:00:00Z" },
  { session: 0, tool: "idle", workload: "idle0", state: "completed", created: "2026-02-09T00:00:00Z" },
].map((e) => ({ ...e, id: randomUUID() }) as ExecutionFixture);

const TEST = { tool_id: "t", workload_id: "w", tool_name: "t", workload_name: "w", workload_description: "d" };

/** What a filter in memory keeps of the sessions, in the lists' order. */
function expectedSessions(q: SessionListQuery): string[] {
  return SESSIONS.filter(
    (s) =>
      s.state !== "deleted" &&
      (!q.provider || s.provider === q.provider) &&
      (!q.state || (q.state as string[]).includes(s.state)) &&
      (!q.created_since || new Date(s.created.replace(" ", "T").replace("+00", "Z")) >= new Date(q.created_since)),
  )
    .sort((a, b) => (a.created.replace("+00", "") < b.created.replace("+00", "") ? -1 : 1))
    .map((s) => s.id);
}

function expectedExecutions(q: ExecutionListQuery): string[] {
  return EXECUTIONS.filter(
    (e) =>
      (!q.session_id || SESSIONS[e.session].id === q.session_id) &&
      (!q.tool || e.tool === q.tool) &&
      (!q.workload || e.workload === q.workload) &&
      (!q.provider || SESSIONS[e.session].provider === q.provider) &&
      (!q.state || q.state.includes(e.state)) &&
      (!q.created_since || new Date(e.created) >= new Date(q.created_since)),
  ).map((e) => e.id);
}

const SESSION_QUERIES: SessionListQuery[] = [
  {},
  { provider: "aws" },
  { provider: "nowhere" },
  { state: ["deleting"] },
  { state: ["active", "deleting"] },
  { created_since: "2026-01-02T00:00:00.000Z" },
  { created_since: "2026-01-05T00:00:00.000Z" },
  { provider: "local", state: ["active"], created_since: "2026-01-01T00:00:01.000Z" },
];

const EXECUTION_QUERIES: ExecutionListQuery[] = [
  {},
  { tool: "idle" },
  { tool: "nope" },
  { workload: "cpu_10000" },
  { provider: "aws" },
  { state: ["completed"] },
  { state: ["completed", "run_failed"] },
  { created_since: "2026-02-03T00:00:00.000Z" },
  { session_id: SESSIONS[0].id },
  { session_id: SESSIONS[3].id },
  { tool: "idle", state: ["completed"], provider: "local" },
  { tool: "idle", workload: "idle0", created_since: "2026-02-02T12:00:00.000Z", state: ["completed", "created"] },
];

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the lists' filters and pages on ${kind}`, () => {
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
      for (const s of SESSIONS) {
        // Written as text, so that the microseconds a Date cannot hold are kept.
        await db.query(
          `INSERT INTO sessions (id, provider_name, service_type, provider_class, config_sealed, state, created) VALUES ($1, $2, 'default', 'local', 'x', $3, $4::timestamptz)`,
          [s.id, s.provider, s.state, s.created],
        );
      }
      for (const e of EXECUTIONS) {
        await store.executions.insert({
          id: e.id,
          session_id: SESSIONS[e.session].id,
          tool_id: e.tool,
          workload_id: e.workload,
          test: TEST,
          state: e.state,
          created: new Date(e.created),
        });
      }
    });

    afterAll(async () => {
      await db.close();
      await dropSchema();
    });

    const sessionIds = async (q: SessionListQuery) => (await store.sessions.find(sessionWhereOf(q))).map((s) => s.id);
    const executionIds = async (q: ExecutionListQuery) => (await store.executions.withSteps(executionWhereOf(q, (t) => t))).map((e) => e.id);

    it.each(SESSION_QUERIES)("selects exactly the sessions that match %o, oldest first", async (q) => {
      expect(await sessionIds(q)).toEqual(expectedSessions(q));
    });

    it.each(EXECUTION_QUERIES)("selects exactly the executions that match %o, in creation order", async (q) => {
      expect(await executionIds(q)).toEqual(expectedExecutions(q));
    });

    it("selects the executions of the sessions a sessions filter selects", async () => {
      const rows = await store.executions.withSteps({ sessions: sessionWhereOf({ provider: "aws" }) });
      // The deleted aws session is not listed, nor are its executions.
      expect(rows.map((r) => r.id)).toEqual(EXECUTIONS.filter((e) => e.session === 1).map((e) => e.id));
    });

    /** Every page of a list, with limit 2, following each page's cursor; `between` runs after the first page. */
    async function pages<R>(read: (cursor: string | undefined) => Promise<{ items: R[]; next?: string }>, between = async () => {}) {
      const all: R[][] = [];
      let cursor: string | undefined;
      do {
        const page = await read(cursor);
        all.push(page.items);
        cursor = page.next;
        if (all.length === 1) await between();
      } while (cursor !== undefined);
      return all;
    }
    const sessionPage = (q: SessionListQuery) => async (cursor: string | undefined) => {
      const rows = await store.sessions.find(sessionWhereOf({ ...q, limit: 2, cursor }));
      const page = pageOf(rows, 2, (last) => sessionCursor(last.key));
      return { items: page.items.map((r) => r.id), next: page.next };
    };
    const executionPage = (q: ExecutionListQuery) => async (cursor: string | undefined) => {
      const rows = await store.executions.withSteps(executionWhereOf({ ...q, limit: 2, cursor }, (t) => t));
      const page = pageOf(rows, 2, (last) => executionCursor(last.seq));
      return { items: page.items.map((r) => r.id), next: page.next };
    };

    it.each(SESSION_QUERIES)("pages through the sessions that match %o, 2 by 2, without a gap or a repeat", async (q) => {
      const all = await pages(sessionPage(q));
      expect(all.flat()).toEqual(expectedSessions(q));
      expect(all.every((p) => p.length === 2 || p === all[all.length - 1])).toBe(true);
    });

    it.each(EXECUTION_QUERIES)("pages through the executions that match %o, 2 by 2, without a gap or a repeat", async (q) => {
      const all = await pages(executionPage(q));
      expect(all.flat()).toEqual(expectedExecutions(q));
      expect(all.every((p) => p.length === 2 || p === all[all.length - 1])).toBe(true);
    });

    it("keeps paging straight when records are created between two pages: they come last, once", async () => {
      // Created (by its clock) before most: still after all of them in creation order.
      const added = randomUUID();
      const listed = await pages(executionPage({ tool: "idle" }), () =>
        store.executions.insert({
          id: added,
          session_id: SESSIONS[0].id,
          tool_id: "idle",
          workload_id: "idle0",
          test: TEST,
          state: "created",
          created: new Date("2026-01-15T00:00:00Z"),
        }),
      );
      expect(listed.flat()).toEqual([...expectedExecutions({ tool: "idle" }), added]);

      const session = randomUUID();
      const sessions = await pages(sessionPage({}), () =>
        store.sessions.insert({
          id: session,
          provider_name: "local",
          service_type: "default",
          provider_class: "local",
          driver: null,
          region: null,
          config_sealed: "x",
          state: "active",
          created: new Date("2026-03-01T00:00:00Z"),
        }),
      );
      expect(sessions.flat()).toEqual([...expectedSessions({}), session]);
    });

    it("reads the figures of successful run attempts, with their session and machine", async () => {
      const e = EXECUTIONS[0];
      await db.query(`UPDATE executions SET exec_env = $2 WHERE id = $1`, [
        e.id,
        JSON.stringify({
          vms: [
            { id: "vm1", ip: "10.0.0.1", platform: "debian_12" },
            { id: "vm2", ip: "10.0.0.2", platform: "debian_12" },
          ],
        }),
      ]);
      const steps: Array<[string, number, string, unknown]> = [
        ["prepare", 1, "succeeded", null],
        [
          "run",
          1,
          "succeeded",
          [
            { name: "ops", value: 10, unit: "op/s", vm: "vm2", tags: { threads: "4" } },
            { name: "lat", value: -0.5, unit: "ms" },
          ],
        ],
        ["run", 2, "failed", [{ name: "ops", value: 99, unit: "op/s" }]],
        ["run", 3, "succeeded", [{ name: "ops", value: 12, unit: "op/s", vm: "vm1" }]],
      ];
      for (const [step, attempt, state, metrics] of steps) {
        await db.query(`INSERT INTO steps (execution_id, step, attempt, state, started, log_file, metrics) VALUES ($1, $2, $3, $4, $5, 'l', $6)`, [
          e.id,
          step,
          attempt,
          state,
          new Date(`2026-02-01T00:0${attempt}:00Z`),
          metrics && JSON.stringify(metrics),
        ]);
      }
      const query = { session_id: SESSIONS[0].id, tool: "idle" };
      const runs = await store.metrics.runMetrics(executionWhereOf(query, (t) => t));
      // Every execution selected is there, with or without a successful run.
      expect(new Set(runs.map((r) => r.execution_id))).toEqual(new Set(await executionIds(query)));
      expect(runs.filter((r) => r.attempt !== null).map((r) => [r.execution_id, r.attempt])).toEqual([
        [e.id, 1],
        [e.id, 3],
      ]);
      const common = {
        session_id: SESSIONS[0].id,
        provider: "local",
        service_type: "default",
        tool: "idle",
        workload: "idle0",
        parameters: {},
        repetition: 1,
        execution_id: e.id,
      };
      expect(metricRowsOf(runs)).toEqual([
        {
          ...common,
          machine: "vm2",
          machine_ip: "10.0.0.2",
          metric: "ops",
          value: 10,
          unit: "op/s",
          tags: { threads: "4" },
          attempt: 1,
          started: "2026-02-01 00:01:00",
        },
        // Two machines and none named: which one is unknown.
        {
          ...common,
          machine: "",
          machine_ip: "",
          metric: "lat",
          value: -0.5,
          unit: "ms",
          tags: {},
          attempt: 1,
          started: "2026-02-01 00:01:00",
        },
        {
          ...common,
          machine: "vm1",
          machine_ip: "10.0.0.1",
          metric: "ops",
          value: 12,
          unit: "op/s",
          tags: {},
          attempt: 3,
          started: "2026-02-01 00:03:00",
        },
      ]);
    });
  });
}
