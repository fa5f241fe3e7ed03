import { describe, expect, it } from "vitest";
import { PlanReports } from "./plan-reports.js";
import { PLAN_ID, RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

describe("PlanReports", () => {
  const run = syntheticRun();
  const asked: string[][] = [];
  const reports = new PlanReports({
    loadRun: async () => ({ plan: run.plan, cells: run.cells }),
    comparedRows: async (ids) => {
      asked.push(ids);
      return ids.map((id) => run.executions.get(id)!);
    },
  });

  it("reads each execution of the run once and answers each format with its media type", async () => {
    const json = await reports.report(PLAN_ID, RUN_ID);
    expect(json).toMatchObject({ format: "json", mediaType: "application/json", body: { run_id: RUN_ID } });
    expect(asked[0]).toHaveLength(7);
    expect(asked[0]).not.toContain(null);
    const media = await Promise.all((["csv", "jsonl", "html"] as const).map(async (f) => (await reports.report(PLAN_ID, RUN_ID, f)).mediaType));
    expect(media).toEqual(["text/csv; charset=utf-8; header=present", "application/x-ndjson", "text/html; charset=utf-8"]);
    const html = await reports.report(PLAN_ID, RUN_ID, "html");
    expect(typeof html.body === "string" && html.body.startsWith("<!doctype html>")).toBe(true);
  });

  it("fills the costs when something gives them", async () => {
    const costed = new PlanReports({
      loadRun: async () => ({ plan: run.plan, cells: run.cells }),
      comparedRows: async (ids) => ids.map((id) => run.executions.get(id)!),
      costs: async (rows) => new Map(rows.map((r) => [r.id, { amount: 0.5, currency: "USD" }])),
    });
    const { body } = await costed.report(PLAN_ID, RUN_ID, "json");
    expect(typeof body === "object" && body.targets.map((t) => t.cost)).toEqual([
      { amount: 1.5, currency: "USD" },
      { amount: 2, currency: "USD" },
    ]);
  });

  it("keeps a final run's report, read once, and answers it only while its plan exists", async () => {
    let loads = 0;
    let planExists = true;
    const kept = new PlanReports({
      loadRun: async () => {
        loads++;
        return { plan: run.plan, cells: run.cells, final: true };
      },
      comparedRows: async (ids) => ids.map((id) => run.executions.get(id)!),
      planExists: async () => planExists,
    });
    const first = await kept.report(PLAN_ID, RUN_ID, "json");
    expect(await kept.report(PLAN_ID, RUN_ID, "json")).toEqual(first);
    await kept.report(PLAN_ID, RUN_ID, "csv");
    expect(loads).toBe(1);
    // Another plan's id with this run's: read again (and refused by the loader, in the engine).
    await kept.report("other", RUN_ID, "json");
    expect(loads).toBe(2);
    planExists = false;
    await kept.report(PLAN_ID, RUN_ID, "json");
    expect(loads).toBe(3);
  });

  it("reads a run that may still change every time", async () => {
    let loads = 0;
    const live = new PlanReports({
      loadRun: async () => {
        loads++;
        return { plan: run.plan, cells: run.cells, final: false };
      },
      comparedRows: async (ids) => ids.map((id) => run.executions.get(id)!),
      planExists: async () => true,
    });
    await live.report(PLAN_ID, RUN_ID, "json");
    await live.report(PLAN_ID, RUN_ID, "json");
    expect(loads).toBe(2);
  });
});
