import { randomUUID } from "node:crypto";
import { openTestStore, testPlanBody } from "../test-support/test-store.js";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanSchedule } from "../model/plans.js";
import { PlanRuns } from "../plan-runs/plan-runs.js";
import { planView } from "../plans/plans.js";
import type { Db } from "../store/db.js";
import type { Store } from "../store/store.js";
import { Scheduler, type SchedulerOptions } from "./scheduler.js";

// The scheduler fires each due tick of a plan once, timed by the database's clock, on either database.

const body = testPlanBody();

// Once a year: a tick set in the past is long missed, and the next is months away.
const YEARLY: PlanSchedule = { cron: "0 0 1 1 *", timezone: "UTC", missed: "skip" };
const LONG_AGO = new Date("2025-01-01T00:00:00Z");

function schedulerOn(store: Store, options: SchedulerOptions = {}): Scheduler {
  return new Scheduler({ store, planRuns: new PlanRuns(store), log: () => {} }, options);
}

async function newPlan(store: Store, schedule: PlanSchedule, nextRunAt: Date | null): Promise<string> {
  const id = randomUUID();
  await store.plans.insert({ id, created: new Date(), body, inline_sealed: null, schedule, next_run_at: nextRunAt });
  return id;
}

async function runsOf(store: Store, planId: string) {
  return store.planRuns.page(planId, undefined, undefined);
}

for (const kind of ["pglite", "postgres"] as const) {
  describe(`the scheduler on ${kind}`, () => {
    let db: Db;
    let store: Store;
    let drop = async () => {};
    beforeAll(async () => {
      let url: string | undefined;
      if (kind === "postgres") ({ url, drop } = await createTestSchema());
      ({ db, store } = await openTestStore(url));
    }, 60_000);
    afterAll(async () => {
      await db.close();
      await drop();
    });

    it("starts one run for a tick found on time, for that tick, and moves to the next tick after now", async () => {
      // Every second: the tick two seconds ago is within the grace.
      const id = await newPlan(store, { cron: "* * * * * *", timezone: "UTC", missed: "skip" }, null);
      const [{ due }] = await db.query<{ due: Date }>(
        "UPDATE plans SET next_run_at = date_trunc('second', now()) - interval '2 seconds' WHERE id = $1 RETURNING next_run_at AS due",
        [id],
      );
      expect((await schedulerOn(store).fireDue()).started).toBeGreaterThanOrEqual(1);
      const runs = await runsOf(store, id);
      expect(runs.map((r) => [r.trigger, r.state, new Date(r.scheduled_for!).getTime()])).toEqual([["schedule", "pending", new Date(due).getTime()]]);
      expect(runs[0].cells).toHaveLength(1);
      const plan = await store.plans.get(id);
      expect(new Date(plan!.next_run_at!).getTime()).toBeGreaterThan(Date.now() - 1_000);
      await store.schedules.pause(id);
    });

    it("skips missed ticks when the plan says skip: no run, the next tick after now", async () => {
      const id = await newPlan(store, YEARLY, LONG_AGO);
      await schedulerOn(store).fireDue();
      expect(await runsOf(store, id)).toEqual([]);
      const plan = await store.plans.get(id);
      expect(new Date(plan!.next_run_at!).getTime()).toBeGreaterThan(Date.now());
      expect(new Date(plan!.next_run_at!).toISOString()).toMatch(/-01-01T00:00:00.000Z$/);
    });

    it("runs missed ticks once together when the plan says run_once", async () => {
      const id = await newPlan(store, { ...YEARLY, missed: "run_once" }, LONG_AGO);
      const scheduler = schedulerOn(store);
      await scheduler.fireDue();
      await scheduler.fireDue();
      const runs = await runsOf(store, id);
      expect(runs.map((r) => [r.trigger, new Date(r.scheduled_for!).toISOString()])).toEqual([["schedule", LONG_AGO.toISOString()]]);
      expect(new Date((await store.plans.get(id))!.next_run_at!).getTime()).toBeGreaterThan(Date.now());
    });

    it("fires no tick of a paused plan, and resumes from now without catching up", async () => {
      const id = await newPlan(store, { ...YEARLY, missed: "run_once" }, LONG_AGO);
      expect(await store.schedules.pause(id)).toBe("paused");
      expect(await store.plans.get(id)).toMatchObject({ schedule_paused: true, next_run_at: null });
      await schedulerOn(store).fireDue();
      expect(await runsOf(store, id)).toEqual([]);
      expect(await store.schedules.resume(id, (_, now) => new Date(now.getTime() + 60_000))).toBe("resumed");
      const resumed = await store.plans.get(id);
      expect(resumed?.schedule_paused).toBe(false);
      expect(new Date(resumed!.next_run_at!).getTime()).toBeGreaterThan(Date.now());
      await schedulerOn(store).fireDue();
      expect(await runsOf(store, id)).toEqual([]);
      // Resuming one not paused changes nothing; a plan without a schedule is told apart.
      expect(await store.schedules.resume(id, () => null)).toBe("running");
      const unscheduled = randomUUID();
      await store.plans.insert({ id: unscheduled, created: new Date(), body, inline_sealed: null });
      expect(await store.schedules.pause(unscheduled)).toBe("unscheduled");
      expect(await store.schedules.resume(unscheduled, () => null)).toBe("unscheduled");
      expect(await store.schedules.pause(randomUUID())).toBe("missing");
    });

    it("records nothing when a tick's run exists already (the unique index), and leaves the tick as it was", async () => {
      const id = await newPlan(store, { ...YEARLY, missed: "run_once" }, LONG_AGO);
      const plan = (await store.plans.get(id))!;
      const planRuns = new PlanRuns(store);
      const fire = (record: (tx: Db) => Promise<void>) => store.schedules.fire(id, LONG_AGO, new Date("2099-01-01T00:00:00Z"), record);
      expect(await planRuns.startScheduled(plan, LONG_AGO, async () => false)).toBeNull();
      // A run for that tick already (as if recorded by another server through some other path).
      await store.planRuns.insert({ ...(await newRunLike(id)), scheduled_for: LONG_AGO, trigger: "schedule" }, []);
      expect(await planRuns.startScheduled(plan, LONG_AGO, fire)).toBeNull();
      expect(new Date((await store.plans.get(id))!.next_run_at!).toISOString()).toBe(LONG_AGO.toISOString());
      expect(await runsOf(store, id)).toHaveLength(1);
    });

    // Issue 34, point 3: one plan with a 20 s cell, its schedule every second, had 12 runs at once.
    it("skips a tick while the plan's previous run goes on, and counts it; with overlap allow, starts another run", async () => {
      const skip = await newPlan(store, { ...YEARLY, missed: "run_once" }, LONG_AGO);
      const allow = await newPlan(store, { ...YEARLY, missed: "run_once", overlap: "allow" }, LONG_AGO);
      const scheduler = schedulerOn(store);
      await scheduler.fireDue();
      // The first ticks' runs are recorded and, no driver here, stay pending: not ended.
      for (const id of [skip, allow]) expect((await runsOf(store, id)).map((r) => r.state)).toEqual(["pending"]);
      // The next tick is due (set back, as a clock moved on would find it).
      const later = new Date("2025-06-01T00:00:00Z");
      await db.query("UPDATE plans SET next_run_at = $2 WHERE id = ANY($1)", [[skip, allow], later]);
      await scheduler.fireDue();
      expect(await runsOf(store, skip)).toHaveLength(1);
      const skipped = (await store.plans.get(skip))!;
      expect(skipped).toMatchObject({ schedule_skipped: 1 });
      expect(new Date(skipped.schedule_last_skipped!).toISOString()).toBe(later.toISOString());
      expect(new Date(skipped.next_run_at!).getTime()).toBeGreaterThan(Date.now());
      expect(planView(skipped).schedule).toMatchObject({ overlap: "skip", skipped_ticks: 1, last_skipped_tick: "2025-06-01 00:00:00" });
      expect((await runsOf(store, allow)).map((r) => new Date(r.scheduled_for!).toISOString()).sort()).toEqual([LONG_AGO.toISOString(), later.toISOString()]);
      expect(await store.plans.get(allow)).toMatchObject({ schedule_skipped: 0, schedule_last_skipped: null });
      // Once the run has ended, the next tick starts one again.
      await db.query("UPDATE plan_runs SET state = 'completed' WHERE plan_id = $1", [skip]);
      const third = new Date("2025-09-01T00:00:00Z");
      await db.query("UPDATE plans SET next_run_at = $2 WHERE id = $1", [skip, third]);
      await scheduler.fireDue();
      expect((await runsOf(store, skip)).map((r) => new Date(r.scheduled_for!).toISOString()).sort()).toEqual([LONG_AGO.toISOString(), third.toISOString()]);
      expect(await store.plans.get(skip)).toMatchObject({ schedule_skipped: 1 });
    });

    it("fires by an injected clock rather than the database's: a tick an hour ahead is due once the clock reaches it, and resumes from that clock", async () => {
      const ahead = new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000);
      const minutely: PlanSchedule = { cron: "* * * * *", timezone: "UTC", missed: "skip" };
      const id = await newPlan(store, minutely, ahead);
      let now = new Date(ahead.getTime() - 1_000);
      const scheduler = schedulerOn(store, { clock: () => now });
      // Not yet by the injected clock, and not by the database's either.
      await scheduler.fireDue();
      expect(await runsOf(store, id)).toEqual([]);
      now = ahead;
      await scheduler.fireDue();
      const runs = await runsOf(store, id);
      expect(runs.map((r) => new Date(r.scheduled_for!).getTime())).toEqual([ahead.getTime()]);
      expect(new Date((await store.plans.get(id))!.next_run_at!).getTime()).toBe(ahead.getTime() + 60_000);
      // Paused, then resumed by the clock: its next tick is the one after the clock's now, not the database's.
      await store.schedules.pause(id);
      now = new Date(ahead.getTime() + 90_000);
      expect(await store.schedules.resume(id, (_, at) => new Date(Math.ceil((at.getTime() + 1) / 60_000) * 60_000), now)).toBe("resumed");
      expect(new Date((await store.plans.get(id))!.next_run_at!).getTime()).toBe(ahead.getTime() + 120_000);
      await store.schedules.pause(id);
    });

    it("wakes by itself for due ticks once started, and stops", async () => {
      const id = await newPlan(store, { ...YEARLY, missed: "run_once" }, LONG_AGO);
      const scheduler = schedulerOn(store, { wakeMs: 50 });
      scheduler.start();
      await until(async () => (await runsOf(store, id)).length === 1);
      await scheduler.stop();
    });
  });
}

describe("two schedulers on one PostgreSQL", () => {
  let drop = async () => {};
  const opened: Db[] = [];
  const stores: Store[] = [];
  beforeAll(async () => {
    let url: string;
    ({ url, drop } = await createTestSchema());
    for (let i = 0; i < 2; i++) {
      const { db, store } = await openTestStore(url);
      opened.push(db);
      stores.push(store);
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await drop();
  });

  it("start one run for a due tick, however they race", async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => newPlan(stores[0], { ...YEARLY, missed: "run_once" }, LONG_AGO)));
    const [a, b] = stores.map((store) => schedulerOn(store));
    const results = await Promise.all([a.fireDue(), b.fireDue(), a.fireDue(), b.fireDue()]);
    expect(results.reduce((n, r) => n + r.started, 0)).toBe(5);
    for (const id of ids) expect((await runsOf(stores[1], id)).map((r) => new Date(r.scheduled_for!).toISOString())).toEqual([LONG_AGO.toISOString()]);
  });

  it("start one run for a due tick while both wake on their own", async () => {
    // Overlap allowed: nothing drives the runs here, so each stays pending, and this counts ticks fired.
    const id = await newPlan(stores[0], { cron: "* * * * * *", timezone: "UTC", missed: "skip", overlap: "allow" }, null);
    const schedulers = stores.map((store) => schedulerOn(store, { wakeMs: 20 }));
    // Both are awake and looking before the tick is due.
    for (const s of schedulers) s.start();
    await opened[0].query("UPDATE plans SET next_run_at = date_trunc('second', now()) + interval '1 second' WHERE id = $1", [id]);
    await new Promise((r) => setTimeout(r, 3_500));
    await Promise.all(schedulers.map((s) => s.stop()));
    await stores[0].schedules.pause(id);
    const runs = await runsOf(stores[0], id);
    // One run per tick fired, each tick once: distinct ticks, as many as fired.
    const ticks = runs.map((r) => new Date(r.scheduled_for!).getTime());
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.length).toBeLessThanOrEqual(5);
  });
});

async function newRunLike(planId: string) {
  return { id: randomUUID(), plan_id: planId, state: "cancelled" as const, created: new Date(), started: null, ended: null, sessions: {} };
}

async function until(probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}
