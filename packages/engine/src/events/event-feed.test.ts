import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open-db.js";
import { migrate } from "../store/migrations.js";
import type { BwEvent, NewEvent } from "../model/events.js";
import { EventLog, type EventLogOptions } from "./event-log.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// Many subscribers of one process share one following of the log. Subscribers are given an
// hour between polls: what they see came through the wake-ups and the shared reads.
const NO_POLL = { pollMs: 3_600_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stateEvent = (session: string, n: number): NewEvent => ({
  type: "step.log",
  session_id: session,
  execution_id: crypto.randomUUID(),
  data: { step: "run", attempt: 1, bytes: n },
});

/** The database, with a count of the reads of events that follow the log (`id > $1 ... LIMIT`). */
function countingReads(db: Db) {
  const counted = { reads: 0, ownReads: 0 };
  const query: Db["query"] = (sql, params) => {
    if (/FROM events WHERE id > \$1/.test(sql)) counted.reads++;
    // A subscriber's own reads carry its filter; the shared ones read everything.
    if (/FROM events WHERE id > \$1 AND/.test(sql)) counted.ownReads++;
    return db.query(sql, params);
  };
  return { db: { ...db, query } as Db, counted };
}

/** A subscriber that takes what it is given only when told to (`take`), as a slow client does. */
function pulled(log: EventLog, afterId: number, filter = {}) {
  const abort = new AbortController();
  const iterator = log.subscribe(filter, afterId, abort.signal);
  const seen: BwEvent[] = [];
  return {
    seen,
    async take(n: number) {
      for (let i = 0; i < n; i++) {
        const next = await iterator.next();
        if (next.done) throw new Error("the subscription ended");
        seen.push(next.value);
      }
    },
    async close() {
      abort.abort();
      await iterator.return(undefined);
    },
  };
}

describe("the event log's subscribers in one process", () => {
  let db: Db;

  beforeAll(async () => {
    db = await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() });
    await migrate(db);
  });

  afterAll(async () => {
    await db.close();
  });

  const logOf = (options: EventLogOptions) => {
    const counting = countingReads(db);
    return { log: new EventLog(counting.db, options), counted: counting.counted };
  };

  it("read the log once per batch of new events, however many there are", async () => {
    const { log, counted } = logOf(NO_POLL);
    const session = crypto.randomUUID();
    const start = await log.lastId();
    const SUBSCRIBERS = 50;
    const subs = Array.from({ length: SUBSCRIBERS }, () => pulled(log, start, { session_id: session }));
    const following = subs.map((s) => s.take(10));
    const ids: number[] = [];
    // Ten commits, each its own wake-up: every subscriber reading for itself would be 50 reads each.
    for (let n = 0; n < 10; n++) {
      ids.push(await log.append(stateEvent(session, n)));
      await sleep(5);
    }
    await Promise.all(following);
    for (const s of subs) expect(s.seen.map((e) => e.id)).toEqual(ids);
    // One read per wake-up at most (and one that finds nothing new after the last); never one per subscriber.
    expect(counted.reads).toBeLessThanOrEqual(ids.length + 2);
    await Promise.all(subs.map((s) => s.close()));
  });

  it("let a subscriber that does not keep up fall behind alone, then catch up from the log without a gap", async () => {
    const { log, counted } = logOf({ ...NO_POLL, batch: 7, buffer: 5, recent: 5 });
    const session = crypto.randomUUID();
    const start = await log.lastId();
    const fast = pulled(log, start, { session_id: session });
    const slow = pulled(log, start, { session_id: session });
    const fastDone = fast.take(40);
    const slowFirst = slow.take(1);
    const ids: number[] = [];
    for (let n = 0; n < 40; n++) {
      ids.push(await log.append(stateEvent(session, n)));
      if (n % 4 === 0) await sleep(2);
    }
    // The fast one has everything while the slow one still holds its first.
    await fastDone;
    await slowFirst;
    expect(fast.seen.map((e) => e.id)).toEqual(ids);
    expect(slow.seen.map((e) => e.id)).toEqual(ids.slice(0, 1));
    expect(counted.ownReads).toBe(0);
    await slow.take(39);
    expect(slow.seen.map((e) => e.id)).toEqual(ids);
    // What it was not handed (it held 5 at most), it read itself.
    expect(counted.ownReads).toBeGreaterThan(0);
    // And it follows live again afterwards.
    const later = slow.take(1);
    const last = await log.append(stateEvent(session, 40));
    await later;
    expect(slow.seen.at(-1)?.id).toBe(last);
    await Promise.all([fast.close(), slow.close()]);
  });

  it("start a subscriber from any point, behind the shared reads or ahead of them", async () => {
    const { log } = logOf({ ...NO_POLL, batch: 4, recent: 3 });
    const session = crypto.randomUUID();
    const start = await log.lastId();
    const early = await log.appendAll(Array.from({ length: 10 }, (_, n) => stateEvent(session, n)));
    // One following already: the others join it, from before, inside and after what it holds.
    const first = pulled(log, start, { session_id: session });
    await first.take(10);
    const fromStart = pulled(log, start, { session_id: session });
    const fromInside = pulled(log, early[8], { session_id: session });
    const fromEnd = pulled(log, early[9], { session_id: session });
    const taking = [fromStart.take(12), fromInside.take(3), fromEnd.take(2), first.take(2)];
    const late = [await log.append(stateEvent(session, 10)), await log.append(stateEvent(session, 11))];
    await Promise.all(taking);
    expect(fromStart.seen.map((e) => e.id)).toEqual([...early, ...late]);
    expect(fromInside.seen.map((e) => e.id)).toEqual([early[9], ...late]);
    expect(fromEnd.seen.map((e) => e.id)).toEqual(late);
    expect(first.seen.map((e) => e.id)).toEqual([...early, ...late]);
    await Promise.all([first, fromStart, fromInside, fromEnd].map((s) => s.close()));
  });

  it("match ids as the database does: a filter's uuid in capitals finds its events, read or handed", async () => {
    const { log } = logOf(NO_POLL);
    const session = crypto.randomUUID();
    const start = await log.lastId();
    const before = await log.append(stateEvent(session, 0));
    const sub = pulled(log, start, { session_id: session.toUpperCase() });
    await sub.take(1);
    const taking = sub.take(1);
    await log.append(stateEvent(crypto.randomUUID(), 1));
    const after = await log.append(stateEvent(session, 2));
    await taking;
    expect(sub.seen.map((e) => e.id)).toEqual([before, after]);
    await sub.close();
  });

  it("end every subscription with the error of a failed shared read, and follow afresh for the next", async () => {
    let failing = false;
    const flaky = {
      ...db,
      query: ((sql, params) =>
        failing && sql.includes("FROM events WHERE") ? Promise.reject(new Error("the database went away")) : db.query(sql, params)) as Db["query"],
    } as Db;
    const log = new EventLog(flaky, NO_POLL);
    const session = crypto.randomUUID();
    const start = await log.lastId();
    const subs = [pulled(log, start, { session_id: session }), pulled(log, start)];
    const ended = subs.map((s) =>
      s.take(2).then(
        () => "took two",
        (e: Error) => e.message,
      ),
    );
    const first = await log.append(stateEvent(session, 0));
    while (subs.some((s) => s.seen.length < 1)) await sleep(5);
    failing = true;
    await log.append(stateEvent(session, 1));
    expect(await Promise.all(ended)).toEqual(["the database went away", "the database went away"]);
    expect(subs.map((s) => s.seen.map((e) => e.id))).toEqual([[first], [first]]);

    failing = false;
    const again = pulled(log, first, { session_id: session });
    await again.take(1);
    expect(again.seen.map((e) => e.data)).toEqual([{ step: "run", attempt: 1, bytes: 1 }]);
    await Promise.all([...subs, again].map((s) => s.close()));
  });

  it("do not read again for subscribers already ended by a failed read, while their clients have yet to see it", async () => {
    let failing = false;
    let failed = 0;
    const flaky = {
      ...db,
      query: ((sql, params) => {
        if (failing && sql.includes("FROM events")) {
          failed++;
          return Promise.reject(new Error("the database went away"));
        }
        return db.query(sql, params);
      }) as Db["query"],
    } as Db;
    const log = new EventLog(flaky, NO_POLL);
    const session = crypto.randomUUID();
    // It takes one event, then nothing for a while (its client is slow): it will see the error when it asks.
    const slow = pulled(log, await log.lastId(), { session_id: session });
    const taking = slow.take(1);
    await log.append(stateEvent(session, 0));
    await taking;
    failing = true;
    await db.transaction((tx) => log.append(stateEvent(session, 1), tx));
    while (failed === 0) await sleep(5);
    await sleep(200);
    expect(failed).toBe(1);
    await expect(slow.take(1)).rejects.toThrow("the database went away");
    await slow.close();
  });

  it("stop reading when the last subscriber goes, and read again for the next", async () => {
    const { log, counted } = logOf({ pollMs: 20 });
    const session = crypto.randomUUID();
    const sub = pulled(log, await log.lastId(), { session_id: session });
    const taking = sub.take(1);
    const id = await log.append(stateEvent(session, 0));
    await taking;
    expect(sub.seen.map((e) => e.id)).toEqual([id]);
    await sub.close();
    await sleep(50);
    const after = counted.reads;
    await sleep(200);
    expect(counted.reads).toBe(after);

    const next = pulled(log, id, { session_id: session });
    const again = next.take(1);
    const second = await log.append(stateEvent(session, 1));
    await again;
    expect(next.seen.map((e) => e.id)).toEqual([second]);
    await next.close();
  });
});
