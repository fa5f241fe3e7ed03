// The series pages against the Prism mock: the contract's examples are a series whose tool upgrade
// (sysbench 1.0.20+ds-5 → ds-6) made a 10% regression at point 34.
import { startPrism, type RunningPrism } from "@benchwright/contract/prism";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR, launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { readTrendChart } from "../test/trend-reading.js";
import { serveStatic } from "../test/static-server.js";

const SUITE = "series-mock";
const WAIT = { timeout: 30_000 };
const SERIES = "2b7e1c9a-4d3f-4a8b-9e6c-5f1d0a2b3c4e";
const CHANGE = "6c2d8e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f";

describe("the series pages against the Prism mock", () => {
  let prism: RunningPrism;
  let site: Awaited<ReturnType<typeof serveStatic>>;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let base: string;

  beforeAll(async () => {
    assertBuilt();
    [prism, site, browser] = await Promise.all([startPrism({ mode: "mock" }), serveStatic(DIST_DIR), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = pageErrors(page);
    // `?api=` names another origin than the page's: the page asks whether to use it, and the developer says yes.
    page.on("dialog", (dialog) => void dialog.accept());
    base = `${site.url}/ui/?api=${encodeURIComponent(prism.url)}`;
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await prism?.stop();
  });

  const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`, WAIT);

  it("lists the series and opens one from the navigation", async () => {
    await page.goto(`${base}#/sessions`);
    await page.click('nav a[href="#/series"]');
    await view("series");
    expect(await page.locator(`[data-testid="series-row"][data-id="${SERIES}"]`).innerText()).toContain("events_per_second");
    await page.click(`[data-testid="series-row"][data-id="${SERIES}"] a`);
    await view("series-one");
  });

  it("draws the trend: the means, the change point with the facts that changed, the baseline", async () => {
    const trend = await readTrendChart(page.locator('div[data-chart="trend"]'));
    expect(trend.texts).toContain("#34 regression -10.0%");
    expect(trend.texts).toContain("tool_version: sysbench 1.0.20+ds-5 → sysbench 1.0.20+ds-6");
    expect(trend.texts).toContain("baseline #1–#5");
    expect(trend.changeLines).toBe(1);
    expect(trend.meanPoints).toBe(2);
    await screenshot(page, SUITE, "1-trend");
    expect(await page.locator('[data-testid="series-changes"] [data-testid="facts-changed"]').innerText()).toContain("tool_version");
  });

  it("acknowledges a change from the series' page", async () => {
    await page.click(`[data-testid="change-row"][data-id="${CHANGE}"] [data-testid="acknowledge"]`);
    await page.waitForSelector(`[data-testid="change-row"][data-id="${CHANGE}"][data-state="acknowledged"]`, WAIT);
    expect(await page.locator('[data-testid="acknowledge"]').count()).toBe(0);
  });

  it("lists the open regressions, each linked to its series", async () => {
    await page.click('nav a[href="#/regressions"]');
    await view("regressions");
    const row = page.locator(`[data-testid="change-row"][data-id="${CHANGE}"]`);
    expect(await row.locator('[data-testid="change-size"]').innerText()).toBe("-10.0% [-10.4%, -9.7%]");
    await screenshot(page, SUITE, "2-regressions");
    await row.locator('[data-testid="series-link"]').click();
    await view("series-one");
    expect(errors).toEqual([]);
  });
});
