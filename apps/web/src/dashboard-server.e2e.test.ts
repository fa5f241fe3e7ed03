// The dashboard served by the real server at /ui/, on a real engine running real (idle) steps.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "@benchwright/engine";
import { createClient, type BenchwrightClient, type Execution, type Session } from "@benchwright/sdk";
import { createApp } from "@benchwright/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR, launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";

const SUITE = "server";
const TOKEN = "dashboard-e2e-token";
const WAIT = { timeout: 60_000 };
const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../config");

describe("the dashboard served by the real server", () => {
  let engine: Engine;
  let server: Server;
  let dataDir: string;
  let configDir: string;
  let url: string;
  let bw: BenchwrightClient;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let session: Session;
  let done: Execution;
  let live: Execution;

  beforeAll(async () => {
    assertBuilt();
    dataDir = mkdtempSync(join(tmpdir(), "bw-web-data-"));
    configDir = mkdtempSync(join(tmpdir(), "bw-web-config-"));
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    engine = await Engine.open({ dataDir, configDir, inMemory: true });
    // With a token: the page must ask for it, and the static files must not.
    const app = createApp({ engine, token: TOKEN, webUiDir: DIST_DIR, validateResponses: true });
    server = await new Promise<Server>((r) => {
      const s = app.listen(0, "127.0.0.1", () => r(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    bw = createClient({ baseUrl: url, token: TOKEN });

    session = await bw.createSession({ provider: "local", service: "default" });
    done = await bw.createExecution(session.id, { tool: "idle", workload: "idle5", params: { seconds: 0.2 } });
    await bw.prepare(done.id);
    await bw.run(done.id);
    live = await bw.createExecution(session.id, { tool: "idle", workload: "idle5", params: { seconds: 1 } });
    await bw.prepare(live.id);

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = pageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    await engine?.close();
    for (const dir of [dataDir, configDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`, WAIT);
  const stateIs = (state: string) => page.waitForSelector(`[data-testid="execution-state"][data-state="${state}"]`, WAIT);

  it("asks for the API token, then lists the sessions", async () => {
    await page.goto(`${url}/ui/#/sessions`);
    await page.waitForSelector('[data-testid="token-form"]', WAIT);
    await screenshot(page, SUITE, "0-token");
    await page.fill('[data-testid="token-form"] input', TOKEN);
    await page.click('[data-testid="token-form"] button');
    await view("sessions");
    const row = page.locator(`[data-testid="session-row"][data-id="${session.id}"]`);
    expect(await row.count()).toBe(1);
    expect(await row.locator(".badges .state").count()).toBe(2);
    await screenshot(page, SUITE, "1-sessions");
  });

  it("follows an execution live: state, log and metrics chart as it runs", async () => {
    await page.goto(`${url}/ui/#/executions/${live.id}`);
    await view("executions-one");
    await stateIs("prepared");
    expect(await page.locator('[data-testid="machines"] tbody tr').count()).toBeGreaterThan(0);
    // Started behind the page's back: only the event stream can tell it.
    await bw.run(live.id, { async: true });
    await stateIs("completed");
    await page.waitForSelector('svg[data-chart="metrics"] rect.bar-rect', WAIT);
    await page.waitForFunction(() => document.querySelector('[data-testid="log"]')?.textContent?.includes("idle_seconds"), undefined, WAIT);
    expect(await page.locator('[data-testid="steps"] tbody tr').count()).toBe(2);
    await screenshot(page, SUITE, "2-execution");
  });

  it("compares the two executions: one bar each, each with its error bar", async () => {
    await page.goto(`${url}/ui/#/executions`);
    await view("executions");
    for (const id of [done.id, live.id]) await page.locator(`[data-testid="execution-row"][data-id="${id}"] input[type=checkbox]`).check();
    await page.locator('[data-testid="compare-selected"]').click();
    await view("compare");
    const chart = page.locator('svg[data-chart="comparison"][data-metric="idle_seconds"]');
    expect(await chart.count()).toBe(1);
    const bars = chart.locator("g.bar");
    expect(await bars.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-key")))).toEqual([done.id, live.id]);
    for (const bar of await bars.all()) {
      expect(await bar.locator("rect.bar-rect").count()).toBe(1);
      expect(await bar.locator("g.error-bar").count()).toBe(1);
    }
    const verdicts = await page.locator('[data-testid="verdict"] .verdict').allInnerTexts();
    expect(verdicts[0]).toBe("baseline");
    await screenshot(page, SUITE, "3-comparison");
    expect(errors).toEqual([]);
  });
});
