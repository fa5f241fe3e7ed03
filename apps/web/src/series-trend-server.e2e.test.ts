// Acceptance of issue 25 (5): the trend view of a series with a change, on the real server at /ui/
// with a real engine (embedded database). Its points are real runs: a tool of the test's own, on
// the local provider, prints the speed a file holds and tells its version from another file (the
// machines' fact tool_version). Six runs at about 100, six at about 80 after a new version: the
// engine's change checker finds the regression, and the chart must show it with that fact.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Change, Series } from "@benchwright/sdk";
import { trendToolDefinition } from "@benchwright/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { type RealServer, startRealServer } from "../test/real-server.js";
import { readTrendChart } from "../test/trend-reading.js";

const SUITE = "series-server";
const TOKEN = "series-e2e-token";
const WAIT = { timeout: 60_000 };

describe("a series' trend on the real server", () => {
  let server: RealServer;
  let dir: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let series: Series;
  let change: Change;

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), "bw-web-trend-"));
    chmodSync(dir, 0o755);
    server = await startRealServer(TOKEN);
    const { bw } = server;
    writeFileSync(join(server.configDir, "benchmarks", "trend.yaml"), trendToolDefinition(dir));
    const session = await bw.createSession({ provider: "local", service: "default" });
    for (const [speed, version] of [
      ...[100, 102, 97, 101, 99, 103].map((s) => [s, "trend 1.0"] as const),
      ...[80, 82, 77, 81, 79, 83].map((s) => [s, "trend 2.0"] as const),
    ]) {
      writeFileSync(join(dir, "speed"), String(speed));
      writeFileSync(join(dir, "version"), version);
      const e = await bw.createExecution(session.id, { tool: "trend", workload: "steady" });
      await bw.prepare(e.id);
      await bw.run(e.id);
    }
    [series] = (await bw.listSeries({ tool: "trend", metric: "speed" })) as [Series];
    // The checker runs in the server, woken by each run's end: wait for it to record the change.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      [change] = (await bw.listSeriesChanges(series.id)) as [Change];
      if (change) break;
    }
    await bw.setSeriesBaseline(series.id, { from: 1, to: 6 });

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = pageErrors(page);
    await page.addInitScript((token) => sessionStorage.setItem(`benchwright.token@${location.origin}`, token), TOKEN);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`, WAIT);

  it("found the regression where the version changed", () => {
    expect(series.points).toBe(12);
    expect(change).toMatchObject({ direction: "regression", state: "open" });
    expect(Math.abs(change.seq - 7)).toBeLessThanOrEqual(1);
    expect(change.facts_changed).toContainEqual({ fact: "tool_version", before: ["trend 1.0"], after: ["trend 2.0"] });
  });

  it("draws the trend with the change point and the facts that changed, and the baseline", async () => {
    await page.goto(`${server.url}/ui/#/regressions`);
    await view("regressions");
    await page.click(`[data-testid="change-row"][data-id="${change.id}"] [data-testid="series-link"]`);
    await view("series-one");
    const trend = await readTrendChart(page.locator('div[data-chart="trend"]'));
    expect(trend.meanPoints).toBe(12);
    expect(trend.changeLines).toBe(1);
    expect(trend.texts).toContain(`#${change.seq} regression ${(change.size * 100).toFixed(1)}%`);
    // Each fact the API says changed is on the chart, one line each.
    for (const f of change.facts_changed) expect(trend.texts).toContain(`${f.fact}: ${f.before.join(", ")} → ${f.after.join(", ")}`);
    expect(trend.texts).toContain("tool_version: trend 1.0 → trend 2.0");
    expect(trend.texts).toContain("baseline #1–#6");
    await screenshot(page, SUITE, "trend");
  });

  it("acknowledges the change: it leaves the open regressions", async () => {
    await page.click(`[data-testid="change-row"][data-id="${change.id}"] [data-testid="acknowledge"]`);
    await page.waitForSelector(`[data-testid="change-row"][data-id="${change.id}"][data-state="acknowledged"]`, WAIT);
    expect((await server.bw.getSeries(series.id)).open_changes).toBe(0);
    await page.goto(`${server.url}/ui/#/regressions`);
    await view("regressions");
    expect(await page.locator(`[data-testid="change-row"][data-id="${change.id}"]`).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
