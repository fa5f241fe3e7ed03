import { randomUUID } from "node:crypto";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeWithEvents } from "../events/store-with-events.js";
import type { PlanBody } from "../model/plans.js";
import type { AlertEvent } from "../model/webhooks.js";
import type { Db } from "./db.js";
import { migrate } from "./migrations.js";
import { openDb } from "./open-db.js";
import type { Store } from "./store.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

// A delivery is one event for one webhook: enqueued by however many servers, it is made once,
// and sent by whoever holds its lease.
for (const kind of ["pglite", "postgres"] as const) {
  describe(`the webhooks' deliveries on ${kind}`, () => {
    // Two stores: on PostgreSQL each has its own pool, as two servers sharing the database.
    let dbs: Db[] = [];
    let a: Store;
    let b: Store;
    let dropSchema = async () => {};

    beforeAll(async () => {
      if (kind === "pglite") dbs = [await openDb({ pgliteDir: "memory://", pgliteImage: testPgliteImage() })];
      else {
        const schema = await createTestSchema();
        dropSchema = schema.drop;
        dbs = [await openDb({ databaseUrl: schema.url }), await openDb({ databaseUrl: schema.url })];
      }
      await migrate(dbs[0]!);
      a = storeWithEvents(dbs[0]!);
      b = storeWithEvents(dbs[dbs.length - 1]!);
    }, 60_000);
    afterAll(async () => {
      for (const db of dbs) await db.close();
      await dropSchema();
    });

    async function newPlan(): Promise<string> {
      const id = randomUUID();
      await a.plans.insert({ id, created: new Date(), body: { targets: [], benchmarks: [] } as unknown as PlanBody, inline_sealed: null });
      return id;
    }

    async function newWebhook(events: AlertEvent[], planId: string | null = null): Promise<string> {
      const id = randomUUID();
      await a.webhooks.insert({ id, url: "https://example.test/hook", secret_sealed: "sealed", events, plan_id: planId, format: "json", created: new Date() });
      return id;
    }

    it("makes one delivery per webhook however many times, and from however many servers, the event is enqueued", async () => {
      const [w1, w2] = [await newWebhook(["regression"]), await newWebhook(["regression", "improvement"])];
      const key = `change:${randomUUID()}`;
      const made = await Promise.all([a, b, a, b].map((s) => s.webhooks.enqueue("regression", key, null, { change: { id: key } })));
      expect(made.reduce((x, y) => x + y, 0)).toBe(2);
      for (const w of [w1, w2]) {
        const deliveries = await a.webhooks.deliveries(w, undefined, undefined);
        expect(deliveries.filter((d) => d.event_key === key)).toHaveLength(1);
        expect(deliveries[0]).toMatchObject({ event: "regression", state: "pending", attempts: 0, payload: { change: { id: key } } });
      }
    });

    it("enqueues for the webhooks whose events name the event, for every plan or for the event's", async () => {
      const [p1, p2] = [await newPlan(), await newPlan()];
      const everyPlan = await newWebhook(["schedule_failed"]);
      const ofP1 = await newWebhook(["schedule_failed"], p1);
      const ofP2 = await newWebhook(["schedule_failed"], p2);
      const otherEvent = await newWebhook(["improvement"]);
      const keyP1 = `schedule_failed:${randomUUID()}`;
      const keyNone = `schedule_failed:${randomUUID()}`;
      await a.webhooks.enqueue("schedule_failed", keyP1, p1, {});
      await a.webhooks.enqueue("schedule_failed", keyNone, null, {});
      const keys = async (w: string) => (await a.webhooks.deliveries(w, undefined, undefined)).map((d) => d.event_key).sort();
      expect(await keys(everyPlan)).toEqual([keyP1, keyNone].sort());
      expect(await keys(ofP1)).toEqual([keyP1]);
      expect(await keys(ofP2)).toEqual([]);
      expect(await keys(otherEvent)).toEqual([]);
    });

    it("leases a due delivery to one claimer, records an attempt only by its holder, and lets go", async () => {
      const w = await newWebhook(["improvement"]);
      const key = `change:${randomUUID()}`;
      await a.webhooks.enqueue("improvement", key, null, {});
      const [byA, byB] = await Promise.all([a.webhooks.claimDue("a", 60_000, 100), b.webhooks.claimDue("b", 60_000, 100)]);
      const mine = [...byA, ...byB].filter((d) => d.event_key === key && d.webhook_id === w);
      expect(mine).toHaveLength(1);
      const [claimed] = mine;
      expect(claimed).toMatchObject({ url: "https://example.test/hook", secret_sealed: "sealed", format: "json", webhook_id: w });
      const holder = byA.includes(claimed!) ? "a" : "b";
      const other = holder === "a" ? "b" : "a";
      const retry = { state: "pending" as const, status: 500, error: "HTTP 500", retryInMs: 60_000 };
      expect(await a.webhooks.recordAttempt(claimed!.id, other, retry)).toBeNull();
      const after = await a.webhooks.recordAttempt(claimed!.id, holder, retry);
      expect(after).toMatchObject({ state: "pending", attempts: 1, last_status: 500, last_error: "HTTP 500", delivered_at: null });
      expect(after!.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);
      // Not due for a minute: nobody claims it meanwhile.
      expect((await a.webhooks.claimDue("a", 60_000, 100)).filter((d) => d.id === claimed!.id)).toEqual([]);
    });

    it("takes a delivery whose holder stopped renewing, and records it delivered", async () => {
      const w = await newWebhook(["regression"]);
      const key = `change:${randomUUID()}`;
      await a.webhooks.enqueue("regression", key, null, {});
      const [first] = (await a.webhooks.claimDue("dead", 1, 100)).filter((d) => d.event_key === key && d.webhook_id === w);
      await new Promise((r) => setTimeout(r, 20));
      const [taken] = (await b.webhooks.claimDue("alive", 60_000, 100)).filter((d) => d.event_key === key && d.webhook_id === w);
      expect(taken?.id).toBe(first?.id);
      const done = await b.webhooks.recordAttempt(taken!.id, "alive", { state: "delivered", status: 204, error: null, retryInMs: null });
      expect(done).toMatchObject({ state: "delivered", attempts: 1, last_status: 204, next_attempt_at: null });
      expect(done!.delivered_at).toBeInstanceOf(Date);
      expect(await a.webhooks.recordAttempt(taken!.id, "alive", { state: "delivered", status: 204, error: null, retryInMs: null })).toBeNull();
    });

    it("lets a stopping holder's deliveries go at once", async () => {
      await newWebhook(["regression"]);
      const key = `change:${randomUUID()}`;
      await a.webhooks.enqueue("regression", key, null, {});
      expect((await a.webhooks.claimDue("stopping", 60_000, 100)).some((d) => d.event_key === key)).toBe(true);
      expect(await a.webhooks.release("stopping")).toBeGreaterThan(0);
      expect((await b.webhooks.claimDue("next", 60_000, 100)).some((d) => d.event_key === key)).toBe(true);
    });

    it("pages webhooks oldest first and deliveries newest first; a webhook's deletion takes its deliveries", async () => {
      const w = await newWebhook(["regression"]);
      const keys = [1, 2, 3].map((i) => `change:page-${i}-${randomUUID()}`);
      for (const key of keys) await a.webhooks.enqueue("regression", key, null, {});
      const all = await a.webhooks.deliveries(w, undefined, undefined);
      expect(all.slice(0, 3).map((d) => d.event_key)).toEqual([...keys].reverse());
      expect((await a.webhooks.deliveries(w, all[0]!.seq, 1)).map((d) => d.event_key)).toEqual([keys[1]]);
      const page = await a.webhooks.page(undefined, 2);
      expect(page).toHaveLength(2);
      expect(Number(page[1]!.seq)).toBeGreaterThan(Number(page[0]!.seq));
      expect(await a.webhooks.delete(w)).toBe(true);
      expect(await a.webhooks.delete(w)).toBe(false);
      expect(await a.webhooks.deliveries(w, undefined, undefined)).toEqual([]);
    });

    it("deletes a plan's webhooks with the plan", async () => {
      const p = await newPlan();
      const w = await newWebhook(["regression"], p);
      expect(await a.plans.delete(p)).toBe("deleted");
      expect(await a.webhooks.get(w)).toBeUndefined();
    });
  });
}
