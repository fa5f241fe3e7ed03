import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db.js";
import { migrate } from "./migrations.js";
import { openDb } from "./open-db.js";

// Migration 14 moves points' facts to series_facts and rebuilds series_points: a store made
// before it must keep every point, with its facts and whether it was checked.
describe("series points made before migration 14", () => {
  let db: Db;
  const seriesId = randomUUID();
  const [kernelA, kernelB] = [
    { kernel: "6.1.0-18", tool_version: "sysbench 1.0.20+ds-5" },
    { kernel: "6.1.0-21", tool_version: "sysbench 1.0.20+ds-5" },
  ];

  beforeAll(async () => {
    db = await openDb({ pgliteDir: "memory://" });
    await migrate(db, { before: 14 });
    await db.query(
      `INSERT INTO series (id, key, tool, workload, params, metric, tags, provider, service_type, unit, better, points, created)
       VALUES ($1, 'k', 'sysbench', 'cpu', '{}', 'events_per_second', '{}', 'local', 'default', 'events/s', 'higher', 3, now())`,
      [seriesId],
    );
    for (const [seq, facts, checked] of [
      [1, kernelA, true],
      [2, kernelA, true],
      [3, kernelB, false],
    ] as const)
      await db.query("INSERT INTO series_points (series_id, seq, execution_id, at, n, mean, facts, checked) VALUES ($1, $2, $3, now(), 1, $4, $5, $6)", [
        seriesId,
        seq,
        randomUUID(),
        100 + seq,
        JSON.stringify(facts),
        checked,
      ]);
  });
  afterAll(() => db?.close());

  it("keeps every point with its facts, each set of facts once, and reads a series' points from its primary key", async () => {
    expect((await migrate(db))[0]).toBe(14);
    const points = await db.query<{ seq: number; mean: number; facts: unknown; checked: boolean }>(
      "SELECT p.seq, p.mean, f.facts, p.checked FROM series_points p JOIN series_facts f ON f.id = p.facts_id WHERE p.series_id = $1 ORDER BY p.seq",
      [seriesId],
    );
    expect(points).toEqual([
      { seq: 1, mean: 101, facts: kernelA, checked: true },
      { seq: 2, mean: 102, facts: kernelA, checked: true },
      { seq: 3, mean: 103, facts: kernelB, checked: false },
    ]);
    expect(await db.query("SELECT count(*)::int AS n FROM series_facts")).toEqual([{ n: 2 }]);
    const [{ indexdef }] = await db.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'series_points_pkey'");
    // Migration 26 added the columns of ingested points (their ingest, branch and commit) to what it carries.
    expect(indexdef).toContain("INCLUDE (execution_id, plan_run_id, at, n, mean, ci_low, ci_high, facts_id, ingest_id, branch, commit_id)");
    // The table made before is gone, its constraints with it.
    expect(await db.query("SELECT 1 FROM pg_tables WHERE tablename = 'series_points_before_14'")).toEqual([]);
  });
});
