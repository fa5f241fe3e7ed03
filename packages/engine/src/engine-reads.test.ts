import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema } from "@benchwright/testing";
import { Engine } from "./engine.js";
import { CommitProbe } from "./store/commit-probe.js";
import type { Db } from "./store/db.js";
import { openDb } from "./store/open-db.js";
import { engineStore } from "./test-access.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../config");
const LOCAL = { provider: "local", service: "default" } as const;

/** Counts the statements `engine` sends to its database from now on. */
function countQueries(engine: Engine): { readonly count: number } {
  const db = engineStore(engine).db as { query: Db["query"] };
  const query = db.query;
  const counter = { count: 0 };
  db.query = (sql, params) => {
    counter.count++;
    return query(sql, params);
  };
  return counter;
}

/** A new local session's execution, read once: its queries are counted from before that read, which needed some. */
async function executionReadOnce(engine: Engine) {
  const session = await engine.createSession(LOCAL);
  const execution = await engine.createExecution(session.id, { tool: "idle", workload: "idle0" });
  const counter = countQueries(engine);
  await engine.getExecution(execution.id);
  expect(counter.count).toBeGreaterThan(0);
  return { session, execution, counter, afterFirst: counter.count };
}

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the engine's read views on ${kind}`, () => {
    let engine: Engine;
    let dataDir: string;
    let databaseUrl: string | undefined;
    let dropSchema = async () => {};

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "bw-reads-"));
      if (kind === "postgres") {
        const schema = await createTestSchema();
        databaseUrl = schema.url;
        dropSchema = schema.drop;
      }
      engine = await Engine.open({ dataDir, configDir: REPO_CONFIG, inMemory: true, pgliteImage: testPgliteImage(), databaseUrl, work: false });
    });

    afterAll(async () => {
      await engine.close();
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("show every write at once: new sessions and executions, step attempts, a deletion", async () => {
      const session = await engine.createSession(LOCAL);
      expect((await engine.getSession(session.id)).executions).toEqual([]);
      expect((await engine.listSessions()).items.map((s) => s.id)).toContain(session.id);

      const execution = await engine.createExecution(session.id, { tool: "idle", workload: "idle0" });
      expect((await engine.getSession(session.id)).executions.map((e) => e.id)).toEqual([execution.id]);
      expect((await engine.listSessions()).items.find((s) => s.id === session.id)?.executions.map((e) => e.id)).toEqual([execution.id]);
      expect((await engine.listExecutions(session.id)).items.map((e) => e.id)).toEqual([execution.id]);
      expect((await engine.getExecution(execution.id)).steps).toEqual([]);

      // A step begins and ends in transactions of their own.
      const step = await engineStore(engine).steps.begin(execution.id, "prepare", { from: ["created"], to: "preparing" }, new Date(), () =>
        join(dataDir, "log"),
      );
      expect(await engine.getExecution(execution.id)).toMatchObject({
        state: "preparing",
        steps: [{ step: "prepare", attempt: 1, state: "running", duration: null }],
      });
      await engineStore(engine).steps.end(
        { execution_id: execution.id, step: "prepare", attempt: step!.attempt },
        { state: "succeeded", duration: 1.5, exit_code: 0, error: null, metrics: null },
        { from: "preparing", to: "prepared" },
      );
      const prepared = await engine.getExecution(execution.id);
      expect(prepared).toMatchObject({
        state: "prepared",
        steps: [{ step: "prepare", attempt: 1, state: "succeeded", duration: "1.500", exit_code: 0 }],
      });
      expect(prepared.steps[0].started).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect((await engine.listSessions()).items.find((s) => s.id === session.id)?.executions[0].state).toBe("prepared");

      await engine.deleteSession(session.id);
      expect((await engine.listSessions()).items.map((s) => s.id)).not.toContain(session.id);
      // Its record stays, as its executions do.
      expect(await engine.getSession(session.id)).toMatchObject({
        id: session.id,
        state: "deleted",
        deleted: expect.any(String),
        executions: [{ id: execution.id }],
      });
      // A deleted session's executions stay readable.
      expect((await engine.getExecution(execution.id)).id).toBe(execution.id);
      expect((await engine.listExecutions()).items.map((e) => e.id)).toContain(execution.id);
    });

    it("answer unknown ids with not_found, and then still do", async () => {
      const missing = "00000000-0000-4000-8000-000000000000";
      for (let i = 0; i < 2; i++) {
        await expect(engine.getExecution(missing)).rejects.toMatchObject({ code: "not_found" });
        await expect(engine.getSession(missing)).rejects.toMatchObject({ code: "not_found" });
        await expect(engine.listExecutions(missing)).rejects.toMatchObject({ code: "not_found" });
      }
    });

    it("list sessions in two queries whatever their number (no query per session or execution)", async () => {
      const queriesFor = async (sessions: number) => {
        for (let i = 0; i < sessions; i++) {
          const s = await engine.createSession(LOCAL);
          for (let j = 0; j < 3; j++) await engine.createExecution(s.id, { tool: "idle", workload: "idle0" });
        }
        const counter = countQueries(engine);
        const before = counter.count;
        await engine.listSessions();
        return counter.count - before;
      };
      expect(await queriesFor(1)).toBe(2);
      expect(await queriesFor(20)).toBe(2);
    });

    // They are shared by every request until a write.
    it("hand out frozen views, which no caller can change for the next", async () => {
      const session = await engine.createSession(LOCAL);
      await engine.createExecution(session.id, { tool: "idle", workload: "idle0" });
      const view = await engine.getSession(session.id);
      expect(() => ((view as { state: string }).state = "deleted")).toThrow(TypeError);
      expect(() => (view.executions as unknown[]).push({})).toThrow(TypeError);
      expect((await engine.getSession(session.id)).state).toBe("active");
    });

    if (kind === "pglite") {
      it("serve a read again from memory until a write changes its tables", async () => {
        const { session, execution, counter, afterFirst } = await executionReadOnce(engine);
        await Promise.all([engine.getExecution(execution.id), engine.getExecution(execution.id)]);
        expect(counter.count).toBe(afterFirst);
        await engine.createExecution(session.id, { tool: "idle", workload: "idle5" });
        const afterWrite = counter.count;
        await engine.getExecution(execution.id);
        expect(counter.count).toBeGreaterThan(afterWrite);
      });
    } else {
      it("serve a read again from memory while the server says nothing committed", async () => {
        // The real probe moves with every commit on the server, other tests' too: here it is held still.
        let token = "held";
        const db = engineStore(engine).db as { commits?: CommitProbe };
        const real = db.commits;
        db.commits = new CommitProbe(async () => token);
        try {
          const { execution, counter } = await executionReadOnce(engine);
          await Promise.all([engine.getExecution(execution.id), engine.getExecution(execution.id), engine.listSessions(), engine.listSessions()]);
          const afterList = counter.count;
          await Promise.all([engine.getExecution(execution.id), engine.listSessions()]);
          expect(counter.count).toBe(afterList);
          token = "moved";
          await engine.getExecution(execution.id);
          expect(counter.count).toBeGreaterThan(afterList);
        } finally {
          db.commits = real;
        }
      });

      it("probe the server for commits: a token moves with a commit of any process", async () => {
        const probe = engineStore(engine).db.commits!;
        const before = await probe.token();
        const other: Db = await openDb({ databaseUrl });
        try {
          await other.query("CREATE TEMP TABLE probe_moved (x int)");
          await other.query("INSERT INTO probe_moved VALUES (1)");
        } finally {
          await other.close();
        }
        expect(await probe.token()).not.toBe(before);
      });

      it("see what another process writes at once", async () => {
        const session = await engine.createSession(LOCAL);
        const execution = await engine.createExecution(session.id, { tool: "idle", workload: "idle0" });
        expect((await engine.getExecution(execution.id)).state).toBe("created");
        const other: Db = await openDb({ databaseUrl });
        try {
          await other.query("UPDATE executions SET state = 'prepared' WHERE id = $1", [execution.id]);
          await other.query("UPDATE sessions SET state = 'deleting' WHERE id = $1", [session.id]);
        } finally {
          await other.close();
        }
        expect((await engine.getExecution(execution.id)).state).toBe("prepared");
        expect((await engine.getSession(session.id)).state).toBe("deleting");
        expect((await engine.listSessions()).items.find((s) => s.id === session.id)?.executions[0].state).toBe("prepared");
      });
    }

    it("show a session's owner and sharing, a change of it at once, and give its executions its owner", async () => {
      const session = await engine.createSession({ ...LOCAL, shared: true }, "otto");
      expect(await engine.getSession(session.id)).toMatchObject({ owner: "otto", shared: true });
      // Read once more (kept), then changed: the next read shows the change.
      expect(await engine.updateSession(session.id, { shared: false })).toMatchObject({ owner: "otto", shared: false });
      expect(await engine.getSession(session.id)).toMatchObject({ shared: false });
      // Whoever creates it (an admin here), an execution is its session's owner's.
      const execution = await engine.createExecution(session.id, { tool: "idle", workload: "idle0" });
      expect(await engineStore(engine).owners.ofExecution(execution.id)).toEqual({ owner: "otto", shared: false });
      expect((await engine.createSession(LOCAL)).owner).toBe("bootstrap");
      // A session being deleted is not shared any more than it is changed otherwise; a deleted one is gone.
      await engineStore(engine).sessions.setState(session.id, ["active"], "deleting");
      await expect(engine.updateSession(session.id, { shared: true })).rejects.toMatchObject({ code: "wrong_state" });
      await engineStore(engine).sessions.setState(session.id, ["deleting"], "deleted");
      await expect(engine.updateSession(session.id, { shared: true })).rejects.toMatchObject({ code: "not_found" });
      expect(await engineStore(engine).owners.ofSession(session.id)).toEqual({ owner: "otto", shared: false });
    });
  });
}
