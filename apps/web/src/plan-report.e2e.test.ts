// The plan report's HTML page, as a reader opens it saved to a file: with the network cut, it
// must still show its ranking and charts, and try to fetch nothing.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plan } from "@benchwright/contract";
import { buildPlanReport, type ComparedRow, type PlanRunCell, renderReport } from "@benchwright/engine";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, pageErrors, screenshot } from "../test/browser.js";

const SUITE = "plan-report";

/** Two targets over three sysbench cells: `cloud` twice as fast in the first, the same in the second, failed in the third. */
function syntheticReport(): Promise<string> {
  const plan: Plan = {
    id: "7c1e9a3b-5d2f-4b8e-9c6a-1f0e2d3c4b5a",
    created: "2026-11-21 10:12:30",
    targets: [
      { label: "here", provider: "local", service: "default", class: "local", inline: false },
      { label: "<b>cloud</b>", provider: "aws", service: "c6a_xlarge", class: "cloud", inline: true },
    ],
    benchmarks: [{ tool: "sysbench", workload: "threads", params: { threads: [1, 4, 16] }, zip: false, cells: 3 }],
    concurrency: { per_target: 1, overall: 2 },
    retries: 0,
    on_failure: "continue",
    keep_sessions: false,
    baseline: "here",
    cells: 3,
    executions: 6,
  };
  const executions = new Map<string, ComparedRow>();
  const cells: PlanRunCell[] = [];
  const cell = (target: string, index: number, values: number[] | null) => {
    const id = values ? `e-${target}-${index}` : null;
    if (id && values)
      executions.set(id, {
        id,
        session_id: `s-${target}`,
        provider: "local",
        service_type: "default",
        tool_id: "sysbench",
        workload_id: "threads",
        state: "completed",
        params: {},
        exec_env: { vms: [] },
        metrics: values.map((value, i) => ({ name: "events_per_second", value, unit: "events/s", better: "higher", tags: {}, repetition: i + 1 })),
      });
    const params = { threads: [1, 4, 16][index] };
    const error = values ? null : "machine cloud-1 did not answer on port 22";
    cells.push({
      target,
      benchmark: 0,
      cell: index,
      tool: "sysbench",
      workload: "threads",
      params,
      state: values ? "completed" : "failed",
      execution_id: id,
      attempts: 2,
      error,
    });
  };
  cell("here", 0, [100, 101, 99, 100.5, 99.5]);
  cell("<b>cloud</b>", 0, [200, 202, 198, 201, 199]);
  cell("here", 1, [100, 110, 90, 105, 95]);
  cell("<b>cloud</b>", 1, [101, 109, 91, 104, 96]);
  cell("here", 2, [300, 303, 297]);
  cell("<b>cloud</b>", 2, null);
  return renderReport(buildPlanReport(plan, cells, executions, { runId: "2b7e4c1a-9d3f-4e8b-a6c5-0f1e2d3c4b5a" }), "html");
}

describe("the plan report's page, opened from a file with the network cut", () => {
  let dir: string;
  let fileUrl: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const attempted: string[] = [];
  const refused: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bw-report-"));
    const file = join(dir, "report.html");
    writeFileSync(file, await syntheticReport());
    fileUrl = pathToFileURL(file).href;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Every request but the file's own is counted and refused.
    await context.route("**/*", (route) => {
      if (route.request().url() === fileUrl) return route.continue();
      attempted.push(route.request().url());
      return route.abort();
    });
    page = await context.newPage();
    page.on("request", (r) => {
      if (r.url() !== fileUrl) attempted.push(r.url());
    });
    page.on("console", (m) => {
      if (/Refused|Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    errors = pageErrors(page);
    await page.goto(fileUrl);
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("shows the ranking, best first, the escaped label as text", async () => {
    const ranking = page.locator('[data-testid="ranking"]');
    expect(await ranking.isVisible()).toBe(true);
    const rows = ranking.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator("th").innerText()).toBe("<b>cloud</b>");
    expect(await rows.nth(0).locator("td").first().innerText()).toBe("1");
    expect((await rows.nth(1).locator("th").innerText()).startsWith("here")).toBe(true);
    // The matrix: the first cell significantly better (coloured), the second plain, the third failed.
    const cloud = page.locator('[data-testid="matrix"] tbody tr').first().locator("td");
    expect(await cloud.nth(0).getAttribute("class")).toBe("better");
    expect(await cloud.nth(0).evaluate((td) => getComputedStyle(td).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    expect(await cloud.nth(1).evaluate((td) => getComputedStyle(td).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
    expect(await cloud.nth(2).innerText()).toBe("failed");
  });

  it("draws both charts as inline SVG, with their bars", async () => {
    for (const chart of ["ranking", "cells"]) {
      const svg = page.locator(`figure[data-chart="${chart}"] svg`);
      expect(await svg.isVisible(), chart).toBe(true);
      const box = await svg.boundingBox();
      expect(box!.width, chart).toBeGreaterThan(400);
      expect(box!.height, chart).toBeGreaterThan(100);
      expect(await svg.locator("path").count(), chart).toBeGreaterThan(5);
    }
    expect(await page.locator('figure[data-chart="ranking"] svg text', { hasText: "<b>cloud</b>" }).count()).toBeGreaterThan(0);
    await screenshot(page, SUITE, "report");
  });

  it("tried to fetch nothing, broke no rule of its policy and threw nothing", () => {
    expect(attempted).toEqual([]);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });
});
