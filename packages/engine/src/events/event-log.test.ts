import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSchema, startTcpProxy } from "@benchwright/testing";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import type { BwEvent, EventFilter, NewEvent } from "../model/events.js";
import { EventLog } from "./event-log.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// The same log on the embedded database and on a real PostgreSQL server. Subscribers are
// given an hour between polls: a test passes only if the wake-ups themselves work.
const NO_POLL = { pollMs: 3_600_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function logEvent(session: string, execution: string | null, bytes: number): NewEvent {
  return execution
    ? { type: "step.log", session_id: session, execution_id: execution, data: { step: "run", attempt: 1, bytes } }
    : { type: "session.state", session_id: session, execution_id: null, data: { state: "active" } };
}

/** Follows `log` in the background, collecting what it yields, until `until` says enough. */
function follow(log: EventLog, filter: EventFilter, afterId: number, until: (seen: BwEvent[]) => boolean) {
  const abort = new AbortController();
  const seen: BwEvent[] = [];
  let failed: unknown;
  const done = (async () => {
    for await (const e of log.subscribe(filter, afterId, abort.signal)) {
      seen.push(e);
      if (until(seen)) break;
    }
  })();
  done.catch((e: unknown) => {
    failed = e;
  });
  /** Until `count` events are seen; fails at once if the subscription ended in error, and after a minute without them. */
  const reach = async (count: number) => {
    for (const end = Date.now() + 60_000; seen.length < count; await sleep(10)) {
      if (failed) throw new Error(`the subscription failed after ${seen.length} events`, { cause: failed });
      if (Date.now() > end) throw new Error(`${seen.length} events seen of ${count}, in a minute`);
    }
  };
  return { seen, done, reach, abort: () => abort.abort() };
}

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the event log on ${kind}`, () => {
    let db: Db;
    let url = "";
    let dropSchema = async () => {};

    beforeAll(async () => {
      if (kind === "pglite") db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
      else {
        const schema = await createTestSchema();
        dropSchema = schema.drop;
        url = schema.url;
        db = await openDb({ databaseUrl: url });
      }
      await migrate(db);
    });

    afterAll(async () => {
      await db.close();
      await dropSchema();
    });

    it("reads in id order from any point, filtered by session, execution and type", async () => {
      const log = new EventLog(db);
      const start = await log.lastId();
      const [s1, s2, x1, x2] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const ids = await log.appendAll([logEvent(s1, null, 0), logEvent(s1, x1, 1), logEvent(s2, x2, 2), logEvent(s1, x1, 3)]);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids[0]).toBeGreaterThan(start);

      const all = await log.read({}, start, 100);
      expect(all.map((e) => e.id)).toEqual(ids);
      expect(all[1]).toEqual({
        id: ids[1],
        at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        type: "step.log",
        session_id: s1,
        execution_id: x1,
        data: { step: "run", attempt: 1, bytes: 1 },
      });
      expect((await log.read({ session_id: s1 }, start, 100)).map((e) => e.id)).toEqual([ids[0], ids[1], ids[3]]);
      expect((await log.read({ execution_id: x1 }, start, 100)).map((e) => e.id)).toEqual([ids[1], ids[3]]);
      expect((await log.read({ session_id: s1, types: ["session.state"] }, start, 100)).map((e) => e.id)).toEqual([ids[0]]);
      expect((await log.read({ types: ["step.log", "session.state"] }, ids[1], 100)).map((e) => e.id)).toEqual([ids[2], ids[3]]);
      expect((await log.read({}, start, 2)).map((e) => e.id)).toEqual([ids[0], ids[1]]);
      expect(await log.lastId()).toBe(ids[3]);
    });

    it("appends with the caller's transaction: rolled back together, seen only once committed", async () => {
      const log = new EventLog(db, NO_POLL);
      const session = crypto.randomUUID();
      const start = await log.lastId();
      const sub = follow(log, { session_id: session }, start, (seen) => seen.length === 2);

      await expect(
        db.transaction(async (tx) => {
          await log.append(logEvent(session, null, 0), tx);
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      expect(await log.read({ session_id: session }, start, 10)).toEqual([]);

      // Committed after a pause: the subscriber, woken by the append, must not have given up on it.
      const committed: number[] = [];
      await db.transaction(async (tx) => {
        committed.push(await log.append(logEvent(session, crypto.randomUUID(), 1), tx));
        await sleep(100);
        committed.push(await log.append(logEvent(session, crypto.randomUUID(), 2), tx));
        await sleep(100);
      });
      await sub.done;
      expect(sub.seen.map((e) => e.id)).toEqual(committed);
    });

    it("follows from a point: what was there, then what comes, each once, until aborted", async () => {
      const log = new EventLog(db, NO_POLL);
      const session = crypto.randomUUID();
      const before = await log.appendAll([1, 2, 3].map((n) => logEvent(session, crypto.randomUUID(), n)));
      const sub = follow(log, { session_id: session }, before[0], () => false);
      const after: number[] = [];
      for (let n = 0; n < 5; n++) {
        after.push(await log.append(logEvent(session, crypto.randomUUID(), n)));
        await sleep(5);
      }
      await log.append(logEvent(crypto.randomUUID(), null, 0)); // another session's
      await sub.reach(7);
      sub.abort();
      await sub.done;
      expect(sub.seen.map((e) => e.id)).toEqual([...before.slice(1), ...after]);
    });

    it("reads in batches: a subscriber far behind catches up without skipping", async () => {
      const log = new EventLog(db, { ...NO_POLL, batch: 7 });
      const session = crypto.randomUUID();
      const start = await log.lastId();
      const ids = await log.appendAll(Array.from({ length: 30 }, (_, n) => logEvent(session, null, n)));
      const sub = follow(log, { session_id: session }, start, (seen) => seen.length === 30);
      await sub.done;
      expect(sub.seen.map((e) => e.id)).toEqual(ids);
    });

    if (kind === "postgres") {
      it("gives every id once and in order to a concurrent subscriber, however the transactions interleave", async () => {
        // Appends from one pool, the subscriber on another (as another process would).
        const reader = await openDb({ databaseUrl: url });
        try {
          const appender = new EventLog(db);
          const log = new EventLog(reader, NO_POLL);
          const session = crypto.randomUUID();
          const start = await log.lastId();
          const expected: number[] = [];
          const TRANSACTIONS = 20;
          const PER_TRANSACTION = 10;
          let finished = 0;
          const sub = follow(log, { session_id: session }, start, () => false);
          await Promise.all(
            Array.from({ length: TRANSACTIONS }, (_, t) =>
              (async () => {
                for (let k = 0; k < PER_TRANSACTION; k++) {
                  await db.transaction(async (tx) => {
                    expected.push(await appender.append(logEvent(session, null, t * 100 + k), tx));
                    // Some commit late: a later id committed first would be read, and this one skipped.
                    if ((t + k) % 3 === 0) await sleep(5 + ((t * 7 + k) % 20));
                  });
                }
                finished++;
              })(),
            ),
          );
          expect(finished).toBe(TRANSACTIONS);
          const last = Math.max(...expected);
          while (sub.seen.at(-1)?.id !== last) await sleep(10);
          sub.abort();
          await sub.done;
          const seen = sub.seen.map((e) => e.id);
          expect(seen.length).toBe(TRANSACTIONS * PER_TRANSACTION);
          expect(seen).toEqual([...expected].sort((a, b) => a - b));
        } finally {
          await reader.close();
        }
      }, 60_000);

      it("listens again after its connection drops, and looks for what it missed", async () => {
        const target = new URL(url);
        const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
        const proxied = new URL(url);
        proxied.port = String(proxy.port);
        const reader = await openDb({ databaseUrl: proxied.toString() });
        try {
          const log = new EventLog(reader, NO_POLL);
          const writer = new EventLog(db);
          const session = crypto.randomUUID();
          const start = await log.lastId();
          const sub = follow(log, { session_id: session }, start, () => false);
          const first = await writer.append(logEvent(session, null, 1));
          await sub.reach(1);
          // The listening connection goes, events are appended meanwhile, and it comes back.
          proxy.cut();
          const missed = await writer.appendAll([logEvent(session, null, 2), logEvent(session, null, 3)]);
          await sleep(300);
          proxy.restore();
          await sub.reach(3);
          const later = await writer.append(logEvent(session, null, 4));
          await sub.reach(4);
          sub.abort();
          await sub.done;
          expect(sub.seen.map((e) => e.id)).toEqual([first, ...missed, later]);
        } finally {
          await reader.close();
          await proxy.close();
        }
      }, 90_000);
    }
  });
}
