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
      costs: async (ids) => new Map(ids.map((id) => [id, { amount: 0.5, currency: "USD" }])),
    });
    const { body } = await costed.report(PLAN_ID, RUN_ID, "json");
    expect(typeof body === "object" && body.targets.map((t) => t.cost)).toEqual([
      { amount: 1.5, currency: "USD" },
      { amount: 2, currency: "USD" },
    ]);
  });
});
