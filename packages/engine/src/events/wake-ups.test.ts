import { describe, expect, it } from "vitest";
import type { Db } from "../store/db.js";
import { WakeUps } from "./wake-ups.js";

/** A database whose only part is `listen`: it counts the listening connections and fires notifications. */
function listeningDb() {
  const notify: Array<() => void> = [];
  const db = {
    kind: "postgres",
    listen: async (_channel: string, onNotify: () => void) => {
      notify.push(onNotify);
      return async () => {};
    },
  } as unknown as Db;
  return { db, notify };
}

describe("wake-ups", () => {
  it("listen once per process, however many subscribers wait", async () => {
    const { db, notify } = listeningDb();
    const wakeUps = new WakeUps(db, "bw_events");
    const waiters = Array.from({ length: 5 }, () => wakeUps.waiter());
    await Promise.resolve();
    expect(notify).toHaveLength(1);
    const signal = new AbortController().signal;
    const woken = waiters.map((w) => w.wait(3_600_000, signal));
    notify[0]();
    await Promise.all(woken);
    for (const w of waiters) w.close();
  });

  it("keep a wake-up that came while the subscriber was reading", async () => {
    const { db, notify } = listeningDb();
    const waiter = new WakeUps(db, "bw_events").waiter();
    await Promise.resolve();
    notify[0]();
    // Not waiting yet: the next wait returns at once instead of sleeping past the news.
    await waiter.wait(3_600_000, new AbortController().signal);
    waiter.close();
  });

  it("end a wait when the subscriber goes", async () => {
    const { db } = listeningDb();
    const waiter = new WakeUps(db, "bw_events").waiter();
    const abort = new AbortController();
    const waiting = waiter.wait(3_600_000, abort.signal);
    abort.abort();
    await waiting;
    waiter.close();
  });

  it("still poll when the database cannot listen", async () => {
    const db = { kind: "postgres", listen: () => Promise.reject(new Error("down")) } as unknown as Db;
    const waiter = new WakeUps(db, "bw_events").waiter();
    await waiter.wait(5, new AbortController().signal);
    waiter.close();
  });
});
