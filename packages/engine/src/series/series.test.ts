import { randomUUID } from "node:crypto";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeWithEvents } from "../events/store-with-events.js";
import type { StoredMetric } from "../model/metrics.js";
import type { Db } from "../store/db.js";
import { migrate } from "../store/migrations.js";
import { openDb } from "../store/open-db.js";
import type { Store } from "../store/store.js";
import { ChangeChecker } from "./change-checker.js";
import type { ChangeView } from "./change-view.js";
import { SeriesBook } from "./series-book.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

const quiet = () => {};

for (const kind of ["pglite", "postgres"] as const) {
  describe(`series on ${kind}`, () => {
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
    }, 60_000);

    afterAll(async () => {
      await db.close();
      await dropSchema();
    });

    async function session(provider = "local"): Promise<string> {
      const id = randomUUID();
      await store.sessions.insert({
        id,
        provider_name: provider,
        service_type: "default",
        provider_class: "local",
        driver: null,
        region: null,
        config_sealed: "x",
        state: "active",
        created: new Date(),
      });
      return id;
    }

    /** An execution that ran once, successfully, measuring `metrics`; its run's start. */
    async function ranExecution(
      sessionId: string,
      metrics: StoredMetric[],
      facts: Record<string, unknown> = {},
      id: string = randomUUID(),
    ): Promise<{ id: string; started: Date }> {
      const test = { tool_id: "sysbench", workload_id: "cpu", tool_name: "sysbench", workload_name: "cpu", workload_description: "d" };
      await store.executions.insert({
        id,
        session_id: sessionId,
        tool_id: "sysbench",
        workload_id: "cpu",
        test,
        params: { threads: 2 },
        state: "prepared",
        created: new Date(),
      });
      await store.executions.setExecEnv(id, { vms: [{ id: "vm1", ip: "127.0.0.1", platform: "debian_12", facts: { cpu_count: 2, ...facts } }] });
      const step = await store.steps.begin(id, "run", { from: ["prepared"], to: "running" }, new Date(), () => "log");
      const ended = await store.steps.end(
        { execution_id: id, step: "run", attempt: step!.attempt },
        { state: "succeeded", duration: 1, exit_code: 0, error: null, metrics },
        { from: "running", to: "completed" },
      );
      expect(ended).not.toBeNull();
      return { id, started: new Date(step!.started) };
    }

    const speed = (value: number, repetition?: number, tags?: Record<string, string>): StoredMetric => ({
      name: "events_per_second",
      value,
      unit: "events/s",
      better: "higher",
      ...(tags ? { tags } : {}),
      ...(repetition === undefined ? {} : { repetition }),
    });

    it("records one point per metric at a run's end: its identity, n, mean and interval, the machines' facts", async () => {
      const sessionId = await session("series-a");
      const first = await ranExecution(
        sessionId,
        [speed(100, 0), speed(102, 1), speed(104, 2), { name: "latency_ms", value: 3, unit: "ms", better: "lower", repetition: 0 }],
        { kernel: "6.1.0", cpu_model: "Xeon", tool_version: "1.0.20", instance_type: "m5.large", zone: "eu-west-1a", cpu_mhz: "2400" },
      );
      const second = await ranExecution(sessionId, [speed(90)], { kernel: "6.1.0", cpu_model: "Xeon" });
      const book = new SeriesBook(store);
      // Made in the order of their keys: sorted by name here.
      const series = (await book.list({ provider: "series-a" })).items.sort((a, b) => a.metric.name.localeCompare(b.metric.name));
      expect(series.map((s) => [s.metric.name, s.points])).toEqual([
        ["events_per_second", 2],
        ["latency_ms", 1],
      ]);
      const eps = series[0];
      expect(eps).toMatchObject({
        benchmark: { tool: "sysbench", workload: "cpu", params: { threads: 2 } },
        metric: { name: "events_per_second", tags: {}, unit: "events/s", better: "higher" },
        target: { provider: "series-a", service_type: "default" },
      });
      const points = (await book.points(eps.id)).items;
      expect(points.map((p) => [p.seq, p.execution_id, p.n, p.mean])).toEqual([
        [1, first.id, 3, 102],
        [2, second.id, 1, 90],
      ]);
      // 102 ± t(0.975, 2) · 2 / √3
      expect(points[0].ci_low).toBeCloseTo(102 - 4.302653 * (2 / Math.sqrt(3)), 4);
      expect(points[1].ci_low).toBeNull();
      // The facts that may explain a change, not every fact (cpu_mhz is left out).
      expect(points[0].facts).toEqual({ kernel: "6.1.0", cpu_model: "Xeon", tool_version: "1.0.20", instance_type: "m5.large", zone: "eu-west-1a" });
      expect(points[0].plan_run_id).toBeNull();
      expect(new Date(`${points[0].at}Z`).getTime()).toBe(Math.floor(first.started.getTime() / 1000) * 1000);
      expect(eps.latest?.seq).toBe(2);
      // Another tag set is another series.
      await ranExecution(sessionId, [speed(5, undefined, { threads: "4" })]);
      expect((await book.list({ provider: "series-a", metric: "events_per_second" })).items).toHaveLength(2);
    });

    it("keeps facts once, when runs with the same new facts end at the same time", async () => {
      const sessionId = await session("series-facts");
      const kernel = `6.1.${randomUUID()}`;
      const ran = await Promise.all([1, 2, 3, 4].map((i) => ranExecution(sessionId, [speed(100 + i)], { kernel })));
      const book = new SeriesBook(store);
      const [series] = (await book.list({ provider: "series-facts" })).items;
      const points = (await book.points(series.id)).items;
      expect(points.map((p) => p.execution_id).sort()).toEqual(ran.map((r) => r.id).sort());
      for (const p of points) expect(p.facts).toEqual({ kernel });
      const kept = await db.query("SELECT id FROM series_facts WHERE facts->>'kernel' = $1", [kernel]);
      expect(kept).toHaveLength(1);
    });

    it("shows a principal who is not an admin the points, changes and series of the executions it may read, and pages them", async () => {
      // One series, its runs by otto (private), olga (private) and in olga's shared session, in turn.
      const [ottos, olgas, shared] = [await session("series-vis"), await session("series-vis"), await session("series-vis")];
      // As a creation by each writes them (an execution then takes its session's owner).
      const own = (id: string, owner: string, isShared: boolean) =>
        db.query("UPDATE sessions SET owner = $2, shared = $3 WHERE id = $1", [id, owner, isShared]);
      await own(ottos, "otto", false);
      await own(olgas, "olga", false);
      await own(shared, "olga", true);
      const runs: Array<{ id: string; who: "otto" | "olga" | "shared"; mean: number }> = [];
      for (const [i, who] of (["otto", "olga", "shared", "olga", "otto", "olga", "otto"] as const).entries()) {
        const mean = 100 + i;
        const { id } = await ranExecution(who === "otto" ? ottos : who === "olga" ? olgas : shared, [speed(mean)]);
        runs.push({ id, who, mean });
      }
      const book = new SeriesBook(store);
      const [whole] = (await book.list({ provider: "series-vis" })).items;
      expect(whole.points).toBe(7);
      // A change at each of olga's private point 4 and otto's point 5.
      for (const seq of [4, 5]) {
        await db.query(
          `INSERT INTO series_changes (id, series_id, point_seq, at, execution_id, direction, size, p_value, before, after, facts_changed, detected)
           VALUES ($1, $2, $3, now(), $4, 'regression', -0.1, 0.01, '{"mean": 1, "n": 1}', '{"mean": 1, "n": 1}', '[]', now())`,
          [randomUUID(), whole.id, seq, runs[seq - 1].id],
        );
      }
      await book.setBaseline(whole.id, { from: 1, to: 7 });

      const readBy = (principal: string) => runs.filter((r) => r.who === "shared" || r.who === principal);
      for (const principal of ["otto", "olga", "vic"]) {
        const visibility = { visible_to: principal };
        const mine = readBy(principal);
        const [series] = (await book.list({ provider: "series-vis", ...visibility })).items;
        expect(series.id).toBe(whole.id);
        // Told from its readable points alone: their count, latest point and baseline.
        expect(series.points, principal).toBe(mine.length);
        expect(series.latest?.execution_id).toBe(mine[mine.length - 1].id);
        expect(series.baseline).toMatchObject({ from: 1, to: 7, n: mine.length });
        expect(series.baseline!.mean).toBeCloseTo(mine.reduce((a, r) => a + r.mean, 0) / mine.length, 9);
        expect(await book.get(whole.id, visibility)).toEqual(series);
        const points = (await book.points(whole.id, {}, visibility)).items;
        expect(points.map((p) => p.execution_id)).toEqual(mine.map((r) => r.id));
        // Page by page, one at a time: the cursor goes on past points of others.
        const paged: Array<string | null> = [];
        let cursor: string | undefined;
        do {
          const page = await book.points(whole.id, { limit: 1, cursor }, visibility);
          paged.push(...page.items.map((p) => p.execution_id));
          cursor = page.next;
        } while (cursor);
        expect(paged).toEqual(mine.map((r) => r.id));
        const changes = (await book.seriesChanges(whole.id, {}, visibility)).items;
        const changeIds = mine.map((r) => r.id).filter((id) => id === runs[3].id || id === runs[4].id);
        expect(
          changes.map((c) => c.execution_id),
          principal,
        ).toEqual(changeIds);
        expect(series.open_changes).toBe(changeIds.length);
        expect((await book.changes({ series_id: whole.id, limit: 1, ...visibility })).items.map((c) => c.execution_id)).toEqual(changeIds.slice(0, 1));
      }
      const [olgasChange, ottosChange] = (await book.seriesChanges(whole.id)).items;
      expect((await book.change(ottosChange.id, { visible_to: "otto" })).id).toBe(ottosChange.id);
      await expect(book.change(olgasChange.id, { visible_to: "otto" })).rejects.toMatchObject({ code: "forbidden" });
      await expect(book.change(randomUUID(), { visible_to: "otto" })).rejects.toMatchObject({ code: "not_found" });

      // A series of olga's private runs alone: not listed for otto, and forbidden, not absent.
      const { id: alone } = await ranExecution(olgas, [speed(1, undefined, { only: "olga" })]);
      const listed = (await book.list({ provider: "series-vis", visible_to: "otto" })).items;
      expect(listed.map((s) => s.id)).toEqual([whole.id]);
      const hers = (await book.list({ provider: "series-vis", visible_to: "olga" })).items.find((s) => s.id !== whole.id)!;
      for (const read of [
        () => book.get(hers.id, { visible_to: "otto" }),
        () => book.points(hers.id, {}, { visible_to: "otto" }),
        () => book.seriesChanges(hers.id, {}, { visible_to: "otto" }),
      ])
        await expect(read()).rejects.toMatchObject({ code: "forbidden" });
      await expect(book.get(randomUUID(), { visible_to: "otto" })).rejects.toMatchObject({ code: "not_found" });
      await expect(book.points(randomUUID(), {}, { visible_to: "otto" })).rejects.toMatchObject({ code: "not_found" });
      // An admin (no visible_to) reads it all, as before.
      expect((await book.points(hers.id)).items.map((p) => p.execution_id)).toEqual([alone]);
    });

    /** A plan with one run whose one cell is execution `executionId`: the run's and the plan's ids. */
    async function planRunOf(executionId: string): Promise<{ planId: string; runId: string }> {
      const [planId, runId] = [randomUUID(), randomUUID()];
      await db.query("INSERT INTO plans (id, created, body) VALUES ($1, now(), '{}')", [planId]);
      await db.query("INSERT INTO plan_runs (id, plan_id, state, created, sessions) VALUES ($1, $2, 'running', now(), '{}')", [runId, planId]);
      await db.query(
        `INSERT INTO plan_run_cells (run_id, seq, target, benchmark, cell, tool, workload, params, state, execution_id)
         VALUES ($1, 0, 't', 0, 0, 'sysbench', 'cpu', '{}', 'running', $2)`,
        [runId, executionId],
      );
      return { planId, runId };
    }

    it("records a plan run's cell's point with its run", async () => {
      const sessionId = await session("series-plan");
      const executionId = randomUUID();
      const { runId } = await planRunOf(executionId);
      await ranExecution(sessionId, [speed(7)], {}, executionId);
      const [series] = (await new SeriesBook(store).list({ provider: "series-plan" })).items;
      expect(series.latest).toMatchObject({ seq: 1, execution_id: executionId, plan_run_id: runId, n: 1, mean: 7, ci_low: null, ci_high: null, facts: {} });
    });

    /** A series of `means`, inserted directly, every point unchecked; facts from `factsOf`; its points of `planRunId` when given. */
    // A point as a run's end writes it, its facts kept once in series_facts.
    const insertPoint = `WITH f AS (INSERT INTO series_facts (digest, facts) VALUES (sha256(convert_to($6::jsonb::text, 'UTF8')), $6::jsonb)
                                     ON CONFLICT (digest) DO UPDATE SET facts = EXCLUDED.facts RETURNING id)
      INSERT INTO series_points (series_id, seq, execution_id, plan_run_id, at, n, mean, facts_id) SELECT $1::uuid, $2::integer, $3::uuid, $4::uuid, now(), 1, $5::double precision, f.id FROM f`;
    async function syntheticSeries(means: number[], factsOf: (i: number) => Record<string, string>, planRunId?: string): Promise<string> {
      const id = randomUUID();
      await db.query(
        `INSERT INTO series (id, key, tool, workload, params, metric, tags, provider, service_type, unit, better, points, created)
         VALUES ($1, $2, 'sysbench', 'cpu', '{}', 'events_per_second', '{}', 'synthetic', 'default', 'events/s', 'higher', $3, now())`,
        [id, randomUUID(), means.length],
      );
      for (const [i, mean] of means.entries()) await db.query(insertPoint, [id, i + 1, randomUUID(), planRunId ?? null, mean, JSON.stringify(factsOf(i))]);
      return id;
    }

    // 100 ± 3, then 80 ± 3 from the 9th point, after a new tool version.
    const jitter = [0, 2, -3, 1, -1, 3, -2, 0, 1, -3, 2, -1, 0, 3, -2, -1];
    const steps = jitter.map((j, i) => (i < 8 ? 100 : 80) + j);
    const facts = (i: number) => ({ kernel: "6.1.0", tool_version: i < 8 ? "1.0" : "1.1" });

    it("finds a step in a series once, with its direction and the facts that changed, and tells it once", async () => {
      const seriesId = await syntheticSeries(steps, facts);
      const told: Array<[ChangeView, { plan_id: string | null }]> = [];
      const checker = new ChangeChecker({ store, log: quiet, onChange: (c, ctx) => void told.push([c, ctx]) });
      await checker.wake();
      await checker.wake();
      const changes = (await new SeriesBook(store).seriesChanges(seriesId)).items;
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({
        seq: 9,
        direction: "regression",
        state: "open",
        before: { n: 8 },
        after: { n: 8 },
        facts_changed: [{ fact: "tool_version", before: ["1.0"], after: ["1.1"] }],
        series: { metric: { name: "events_per_second", better: "higher" } },
      });
      expect(changes[0].size).toBeCloseTo(-0.2, 1);
      expect(told.map(([c, ctx]) => [c.id, ctx])).toEqual([[changes[0].id, { plan_id: null }]]);
      const events = await db.query<{ type: string; data: { change_id: string } }>("SELECT type, data FROM events WHERE type = 'change.detected'");
      expect(events.filter((e) => e.data.change_id === changes[0].id).map((e) => e.data)).toEqual([
        { change_id: changes[0].id, series_id: seriesId, direction: "regression", size: changes[0].size },
      ]);
      expect((await db.query("SELECT 1 FROM series_points WHERE series_id = $1 AND NOT checked", [seriesId])).length).toBe(0);

      const book = new SeriesBook(store);
      const acknowledged = await book.acknowledge(changes[0].id);
      expect(acknowledged.state).toBe("acknowledged");
      expect((await book.changes({ series_id: seriesId, state: "open" })).items).toEqual([]);
    });

    it("refines a change found early, while few points followed it, into one record where the level changed", async () => {
      // Checked point by point, as runs end: with three or four points after the step, the test
      // splits a point or two early (the latest "before" points fall in the shorter segment).
      // These numbers (100 ± 3, then 80 ± 3 from the 9th point) are first split at the 7th point.
      const early = [-2, 2, 1, 3, 3, 1, -1, -3, 3, 2, -3, 0, 1, -2, -2, -2].map((j, i) => (i < 8 ? 100 : 80) + j);
      const seriesId = await syntheticSeries([], facts);
      const told: Array<Pick<ChangeView, "id" | "seq" | "revision">> = [];
      const checker = new ChangeChecker({ store, log: quiet, onChange: ({ id, seq, revision }) => void told.push({ id, seq, revision }) });
      const seen = new Set<number>();
      for (const [i, mean] of early.entries()) {
        await db.query(insertPoint, [seriesId, i + 1, randomUUID(), null, mean, JSON.stringify(facts(i))]);
        await checker.wake();
        for (const c of (await new SeriesBook(store).seriesChanges(seriesId)).items) seen.add(c.seq);
      }
      const changes = (await new SeriesBook(store).seriesChanges(seriesId)).items;
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({ seq: 9, facts_changed: [{ fact: "tool_version", before: ["1.0"], after: ["1.1"] }] });
      expect(changes[0].size).toBeCloseTo(-0.2, 1);
      // Told as first found (early), then again, as the same change, where it settled: a receiver
      // told the first would otherwise never learn the correction.
      expect(told).toEqual([
        { id: changes[0].id, seq: 7, revision: 1 },
        { id: changes[0].id, seq: 9, revision: 2 },
      ]);
      expect(changes[0].revision).toBe(2);
      const events = await db.query<{ data: { change_id: string; revision?: number } }>("SELECT data FROM events WHERE type = 'change.detected' ORDER BY id");
      expect(events.filter((e) => e.data.change_id === changes[0].id).map((e) => e.data.revision)).toEqual([undefined, 2]);
      // It was first found early, then moved: the case this guards.
      expect([...seen].sort()).toEqual([7, 9]);
    });

    it("records a change once when two checkers race for it", async () => {
      const seriesId = await syntheticSeries(steps, facts);
      const told: string[] = [];
      const checkers = [0, 1].map(() => new ChangeChecker({ store, log: quiet, onChange: (c) => void told.push(c.id) }, { batch: 1 }));
      // Each point claimed by one of them: both check windows that show the step.
      await Promise.all(checkers.map((c) => c.wake()));
      // And both checking the whole series at once.
      await Promise.all(checkers.map((c) => c.checkSeries(seriesId, steps.length)));
      const changes = (await new SeriesBook(store).seriesChanges(seriesId)).items;
      expect(changes.map((c) => c.seq)).toEqual([9]);
      expect(told).toEqual([changes[0].id]);
    });

    it("tells a change of a plan's run with its plan", async () => {
      const { planId, runId } = await planRunOf(randomUUID());
      const seriesId = await syntheticSeries(steps, facts, runId);
      const told: Array<{ plan_id: string | null }> = [];
      await new ChangeChecker({ store, log: quiet, onChange: (_c, ctx) => void told.push(ctx) }).checkSeries(seriesId, steps.length);
      expect(told).toEqual([{ plan_id: planId }]);
    });

    it("compares the latest level with a baseline", async () => {
      const seriesId = await syntheticSeries(steps, facts);
      await new ChangeChecker({ store, log: quiet }).wake();
      const book = new SeriesBook(store);
      const series = await book.setBaseline(seriesId, { from: 1, to: 8 });
      expect(series.baseline).toMatchObject({ from: 1, to: 8, n: 8 });
      expect(series.baseline!.mean).toBeCloseTo(100, 5);
      expect(series.latest_vs_baseline?.direction).toBe("regression");
      expect(series.latest_vs_baseline!.size).toBeCloseTo(-0.2, 1);
      await expect(book.setBaseline(seriesId, { from: 3, to: 99 })).rejects.toMatchObject({ code: "validation_failed" });
      // A margin is kept with the baseline and gives a claim; `min_difference` is the same margin under its older name.
      const within = await book.setBaseline(seriesId, { from: 1, to: 8, margin: 0.02 });
      expect(within.baseline?.margin).toBe(0.02);
      expect(within.latest_vs_baseline?.claim).toMatchObject({ verdict: "worse", margin: 0.02 });
      const older = await book.setBaseline(seriesId, { from: 1, to: 8, min_difference: 0.5 });
      expect(older.latest_vs_baseline?.claim).toMatchObject({ verdict: "equivalent", margin: 0.5 });
      await book.clearBaseline(seriesId);
      expect((await book.get(seriesId)).baseline).toBeNull();
    });
  });
}
