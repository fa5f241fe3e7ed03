import { describe, expect, it } from "vitest";
import { jsonBody, slackBody, webhookBody } from "./webhook-bodies.js";

const CREATED = new Date("2026-11-26T05:01:02.345Z");

const CHANGE = {
  id: "3f1c6f1e-8a0e-4f7e-9a51-6f0d2b7c9a11",
  series_id: "8a4b2c6d-0e1f-4a3b-9c5d-7e6f8a9b0c1d",
  series: {
    tool: "sysbench",
    workload: "cpu",
    params: { threads: 2 },
    metric: "events_per_second",
    tags: {},
    provider: "lab",
    service_type: "small",
    unit: "events/s",
    better: "higher",
  },
  seq: 30,
  execution_id: "9b2e4d6a-1c3f-4e5a-8b7d-0a1b2c3d4e5f",
  direction: "regression",
  size: -0.1034,
  size_ci_low: -0.121,
  size_ci_high: -0.085,
  p_value: 0.001,
  before: { mean: 1000, n: 30 },
  after: { mean: 896.6, n: 5 },
  facts_changed: [{ fact: "kernel", before: ["6.1.0-18-amd64"], after: ["6.1.0-<21>-amd64"] }],
};

describe("a delivery's JSON body", () => {
  it("is the envelope: the event key as id, the event, when, and the payload as data", () => {
    const message = { event: "regression" as const, eventKey: `change:${CHANGE.id}`, created: CREATED, payload: { change: CHANGE } };
    expect(jsonBody(message)).toEqual({ id: `change:${CHANGE.id}`, event: "regression", created: "2026-11-26 05:01:02", data: { change: CHANGE } });
    expect(JSON.parse(webhookBody("json", message))).toEqual(jsonBody(message));
  });
});

describe("a delivery's Slack body", () => {
  it("says a change in one line, and its series, size with interval, levels and changed facts in mrkdwn", () => {
    const body = slackBody({ event: "regression", eventKey: `change:${CHANGE.id}`, created: CREATED, payload: { change: CHANGE } });
    expect(body.text).toBe("Regression: events_per_second of sysbench/cpu on lab/small -10.3% (CI -12.1% to -8.5%)");
    expect(body.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: expect.any(String) } });
    const text = (body.blocks[0] as { text: { text: string } }).text.text;
    expect(text).toContain("*Regression* in `events_per_second` (higher is better)");
    expect(text).toContain("*Series:* sysbench/cpu (threads=2) on lab/small");
    expect(text).toContain("*Size:* -10.3% (CI -12.1% to -8.5%), 1000 → 896.6 events/s");
    // Slack's markup characters are escaped.
    expect(text).toContain("*Facts that changed:* kernel: 6.1.0-18-amd64 → 6.1.0-&lt;21&gt;-amd64");
    expect(JSON.stringify(body.blocks[1])).toContain(CHANGE.id);
    expect(body.text).not.toContain("\n");
  });

  it("says an improvement as one, and a change without facts or interval", () => {
    const change = { ...CHANGE, direction: "improvement", size: 0.05, size_ci_low: null, size_ci_high: null, facts_changed: [] };
    const body = slackBody({ event: "improvement", eventKey: "change:x", created: CREATED, payload: { change } });
    expect(body.text).toBe("Improvement: events_per_second of sysbench/cpu on lab/small +5.0%");
    expect(JSON.stringify(body.blocks)).toContain("none recorded");
  });

  it("says a failed scheduled run: its plan, its run, and the cells that failed", () => {
    const payload = {
      plan_id: "7c1e9a3b-5d2f-4b8e-9c6a-1f0e2d3c4b5a",
      run: { id: "5e8d2c1a-9b7f-4a3e-8d6c-2b1a0f9e8d7c", state: "failed", scheduled_for: "2026-11-26 05:00:00", progress: { total: 4, failed: 1 } },
      failed_cells: [{ target: "lab", tool: "idle", workload: "idle5", state: "failed", error: "exit code 1\nmore" }],
    };
    const body = slackBody({ event: "schedule_failed", eventKey: `schedule_failed:${payload.run.id}`, created: CREATED, payload });
    expect(body.text).toBe(`Scheduled run ${payload.run.id} of plan ${payload.plan_id} failed (1 of 4 cells failed)`);
    const text = (body.blocks[0] as { text: { text: string } }).text.text;
    expect(text).toContain(`*Plan:* \`${payload.plan_id}\``);
    expect(text).toContain(`*Run:* \`${payload.run.id}\` (failed)`);
    expect(text).toContain("• lab idle/idle5: exit code 1 more");
  });

  it("is written as Slack's JSON by webhookBody", () => {
    const parsed = JSON.parse(webhookBody("slack", { event: "regression", eventKey: "change:x", created: CREATED, payload: { change: CHANGE } }));
    expect(Object.keys(parsed).sort()).toEqual(["blocks", "text"]);
  });
});
