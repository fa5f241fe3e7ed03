// The plan pages served by the real server, on a real engine running a real (idle) plan on
// `local`, with the network cut for everything but the server: the matrix fills as the run
// goes, then the ranking and the charts show the report.
import { readFileSync } from "node:fs";
import type { BenchwrightClient, Plan, PlanCreate, PlanReport } from "@benchwright/sdk";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { readBarChart } from "../test/chart-reading.js";
import { type RealServer, startRealServer } from "../test/real-server.js";

const SUITE = "plans";
const TOKEN = "plan-pages-e2e-token";
const WAIT = { timeout: 90_000 };

type InlineConfig = NonNullable<PlanCreate["targets"][number]["config"]>;

/**
 * A local configuration given with the plan, its one service type priced. Cast: the generated
 * type of an inline configuration crosses `provider` with the service types' index signature,
 * which no object literal satisfies.
 */
function localPriced(name: string, price: { price_per_hour: number; currency?: string }): InlineConfig {
  return { provider: { class: "local", name }, default: price } as unknown as InlineConfig;
}

/** Each square's tones as the page showed them, in order; and whether the document stayed the same (no reload). */
interface Seen {
  tones: Record<string, string[]>;
  states: string[];
  sameDocument: boolean;
}

describe("the plan pages served by the real server", () => {
  let server: RealServer;
  let bw: BenchwrightClient;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let plan: Plan;
  let runId: string;
  const outside: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    server = await startRealServer(TOKEN);
    bw = server.bw;
    plan = await bw.createPlan({
      targets: [
        { label: "a", provider: "local", service: "default" },
        { label: "b", provider: "local", service: "default" },
      ],
      benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [1, 2] } }],
      repetitions: { count: 2 },
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    // The network is cut: any request but the server's is counted and refused.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.url}/`)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    // The token, as the page's form keeps it (api.ts, under the origin it was entered for): every call, downloads included, must send it.
    await context.addInitScript((token) => sessionStorage.setItem(`benchwright.token@${location.origin}`, token), TOKEN);
    page = await context.newPage();
    errors = pageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`, WAIT);
  const runState = (state: string) => page.waitForSelector(`[data-testid="plan-run-state"][data-state="${state}"]`, WAIT);
  const squares = () =>
    page.locator('[data-testid="matrix-cell"]').evaluateAll((tds) =>
      tds.map((td) => ({
        key: `${td.getAttribute("data-target")}/${td.getAttribute("data-benchmark")}/${td.getAttribute("data-cell")}`,
        tone: td.getAttribute("data-tone")!,
        title: td.getAttribute("title") ?? "",
        background: (td as HTMLElement).style.background,
      })),
    );

  it("lists the plan under Plans, beside Sessions, with its size", async () => {
    await page.goto(`${server.url}/ui/#/sessions`);
    await view("sessions");
    const nav = await page.locator(".top nav a").allInnerTexts();
    expect(nav.slice(0, 2)).toEqual(["Sessions", "Plans"]);
    await page.click('.top nav a[href="#/plans"]');
    await view("plans");
    const row = page.locator(`[data-testid="plan-row"][data-id="${plan.id}"]`);
    expect(await row.count()).toBe(1);
    expect(await row.locator('[data-testid="plan-size"]').innerText()).toBe("2 targets × 2 cells = 4 executions");
    await screenshot(page, SUITE, "1-plans");
  });

  it("shows the plan: its targets, its benchmark with its param list, no run yet", async () => {
    await page.locator(`[data-testid="plan-row"][data-id="${plan.id}"] a`).click();
    await view("plans-one");
    expect(await page.locator('[data-testid="plan-targets"] tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^a \(baseline\)\tlocal\tdefault\tlocal/),
      expect.stringMatching(/^b\tlocal\tdefault\tlocal/),
    ]);
    expect(await page.locator('[data-testid="plan-benchmarks"] tbody').innerText()).toContain("seconds = 1, 2");
    expect(await page.locator('[data-testid="plan-runs"] tbody').innerText()).toBe("Not run yet");
    await screenshot(page, SUITE, "2-plan");
  });

  it("runs it from its Run button and opens the run, whose matrix fills live without a reload", async () => {
    // Every tone each square shows, as the page shows it; and a mark that a reload would wipe.
    await page.evaluate(() => {
      const w = window as unknown as { seen: Seen };
      w.seen = { tones: {}, states: [], sameDocument: true };
      new MutationObserver(() => {
        for (const td of document.querySelectorAll('[data-testid="matrix-cell"]')) {
          const key = `${td.getAttribute("data-target")}/${td.getAttribute("data-benchmark")}/${td.getAttribute("data-cell")}`;
          const list = (w.seen.tones[key] ??= []);
          const tone = td.getAttribute("data-tone")!;
          if (list[list.length - 1] !== tone) list.push(tone);
        }
        const state = document.querySelector('[data-testid="plan-run-state"]')?.getAttribute("data-state");
        if (state && w.seen.states[w.seen.states.length - 1] !== state) w.seen.states.push(state);
      }).observe(document.getElementById("view")!, { subtree: true, childList: true, attributes: true });
    });
    await page.click('[data-testid="start-plan-run"]');
    await page.waitForFunction((id) => location.hash.startsWith(`#/plans/${id}/runs/`), plan.id, WAIT);
    await view("plan-run");
    runId = await page.evaluate(() => location.hash.split("/runs/")[1]!);
    expect(await page.locator('[data-testid="matrix"] tbody tr').count()).toBe(2);
    expect(await page.locator('[data-testid="matrix"] thead th[scope="col"]').allInnerTexts()).toEqual([
      expect.stringMatching(/^idle\/idle5 seconds=1/),
      expect.stringMatching(/^idle\/idle5 seconds=2/),
    ]);
    await page.waitForSelector('[data-testid="matrix-cell"][data-tone="running"], [data-testid="matrix-cell"][data-tone="preparing"]', WAIT);
    expect(await page.locator('[data-testid="cancel-plan-run"]').isVisible()).toBe(true);
    await screenshot(page, SUITE, "3-run-live");
    await runState("completed");
    expect(await page.locator('[data-testid="cancel-plan-run"]').isHidden()).toBe(true);
    expect(await page.innerText('[data-testid="plan-run-progress"]')).toBe("4 of 4 cells ended");
    // Ended: the ranking is no longer "so far".
    await page.waitForSelector('[data-testid="ranking-note"]:not(:has-text("still going"))', WAIT);

    const seen = await page.evaluate(() => (window as unknown as { seen: Seen }).seen);
    expect(seen.sameDocument).toBe(true);
    expect(seen.states[seen.states.length - 1]).toBe("completed");
    expect(seen.states.indexOf("running")).toBeGreaterThanOrEqual(0);
    // Each square was seen under way (its state) before its verdict's tone: the page followed it.
    expect(Object.keys(seen.tones).sort()).toEqual(["a/0/0", "a/0/1", "b/0/0", "b/0/1"]);
    for (const [key, tones] of Object.entries(seen.tones)) {
      expect(
        tones.some((t) => ["pending", "preparing", "running"].includes(t)),
        `${key}: ${tones.join(" → ")}`,
      ).toBe(true);
      expect(["baseline", "better", "worse", "plain"], `${key}: ${tones.join(" → ")}`).toContain(tones[tones.length - 1]);
    }
  });

  it("colours each square as the report's verdict on its main metric: the baseline's, green, red, or plain", async () => {
    const report = await bw.getPlanRunReport(plan.id, runId);
    // The page reads the report when the run ends: wait for its last figures.
    await expect.poll(async () => (await squares()).every((s) => s.tone !== "completed"), WAIT).toBe(true);
    const shown = await squares();
    for (const cell of report.cells) {
      const main = cell.metrics.find((m) => m.name === cell.main_metric)!;
      expect(main.name).toBe("idle_seconds");
      for (const f of main.figures) {
        const square = shown.find((s) => s.key === `${f.target}/${cell.benchmark}/${cell.cell}`)!;
        const tone = f.verdict === "better" || f.verdict === "worse" || f.verdict === "baseline" ? f.verdict : "plain";
        expect(square.tone, square.key).toBe(tone);
        // Coloured only where the difference is significant.
        expect(square.background !== "", square.key).toBe(tone === "better" || tone === "worse");
        expect(square.title).toContain("idle_seconds:");
      }
    }
    expect(shown.filter((s) => s.key.startsWith("a/")).map((s) => s.tone)).toEqual(["baseline", "baseline"]);
  });

  it("ranks the targets and draws each one's geometric mean with its interval", async () => {
    const report: PlanReport = await bw.getPlanRunReport(plan.id, runId);
    const rows = page.locator('[data-testid="ranking"] tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-target")))).toEqual(report.targets.map((t) => t.target));
    expect(await rows.first().locator("td").first().innerText()).toBe(String(report.targets[0]!.rank));
    const { bars, resolution } = await readBarChart(page.locator('div[data-chart="geomean"]'), WAIT.timeout);
    expect(bars.map((b) => b.label)).toEqual(report.targets.map((t) => t.target));
    for (const [i, bar] of bars.entries()) {
      const t = report.targets[i]!;
      expect(Math.abs(bar.value - t.geomean!)).toBeLessThanOrEqual(resolution);
      // Two cells: each mean has its interval, drawn as the bar's whisker.
      expect(Math.abs(bar.low! - t.geomean_ci_low!)).toBeLessThanOrEqual(resolution);
      expect(Math.abs(bar.high! - t.geomean_ci_high!)).toBeLessThanOrEqual(resolution);
    }
    // No price is set for local: no chart against cost, and the page says why.
    expect(await page.innerText('[data-testid="no-costs"]')).toContain("No prices were set");
    expect(await page.locator('div[data-chart="cost"]').count()).toBe(0);
    await screenshot(page, SUITE, "4-run-done");
  });

  it("downloads the report as HTML and CSV through the API with the page's token", async () => {
    for (const [format, expected] of [
      ["html", `Report of run ${runId}`],
      ["csv", "target,benchmark,cell,tool,workload,parameters,metric"],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent("download", WAIT), page.click(`[data-testid="download-${format}"]`)]);
      expect(download.suggestedFilename()).toBe(`report-${runId.split("-")[0]}.${format}`);
      const text = readFileSync((await download.path())!, "utf8");
      expect(text).toContain(expected);
    }
    expect(await page.locator('[data-testid="plan-run-actions"] ~ .status [data-testid="problem"]').count()).toBe(0);
  });

  it("cancels a run from its page: it ends cancelled, its cells ended or cancelled", async () => {
    await page.goto(`${server.url}/ui/#/plans/${plan.id}`);
    await view("plans-one");
    expect(await page.locator('[data-testid="plan-run-row"]').count()).toBe(1);
    await page.click('[data-testid="start-plan-run"]');
    await view("plan-run");
    const cancelled = await page.evaluate(() => location.hash.split("/runs/")[1]!);
    await page.waitForSelector('[data-testid="matrix-cell"][data-tone="running"]', WAIT);
    await page.click('[data-testid="cancel-plan-run"]');
    await runState("cancelled");
    expect(await page.locator('[data-testid="cancel-plan-run"]').isHidden()).toBe(true);
    const run = await bw.getPlanRun(plan.id, cancelled);
    expect(run.state).toBe("cancelled");
    expect(run.progress.cancelled).toBeGreaterThan(0);
    await expect
      .poll(async () => (await squares()).filter((s) => s.tone === "cancelled").length, WAIT)
      .toBe(run.cells.filter((c) => c.state === "cancelled").length);
    // The ranking counts the cancelled cells apart from the failed ones.
    const report = await bw.getPlanRunReport(plan.id, cancelled);
    const counts = await page
      .locator('[data-testid="ranking"] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute("data-target"), tr.children[4]?.textContent, tr.children[5]?.textContent]));
    expect(counts).toEqual(report.targets.map((t) => [t.target, "0", String(t.cancelled)]));
    expect(report.targets.reduce((n, t) => n + t.cancelled, 0)).toBe(run.progress.cancelled);
    await screenshot(page, SUITE, "5-run-cancelled");

    // The plan's page lists both runs, each with its state.
    await page.click(`h1 a[href="#/plans/${plan.id}"]`);
    await view("plans-one");
    const states = await page.locator('[data-testid="plan-run-row"]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-state")));
    expect(states).toEqual(["completed", "cancelled"]);
    await screenshot(page, SUITE, "6-plan-runs");
  });

  it("draws performance against cost, one point per target, when the targets' services have prices", async () => {
    const priced = await bw.createPlan({
      targets: [
        { label: "cheap", config: localPriced("cheap", { price_per_hour: 0.5 }) },
        { label: "dear", config: localPriced("dear", { price_per_hour: 4 }) },
      ],
      benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: [0.2, 0.3] } }],
      repetitions: { count: 2 },
    });
    let run = await bw.startPlanRun(priced.id);
    for (const deadline = Date.now() + WAIT.timeout; run.ended === null && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 500));
      run = await bw.getPlanRun(priced.id, run.id);
    }
    expect(run.state).toBe("completed");
    const report = await bw.getPlanRunReport(priced.id, run.id);
    expect(report.targets.every((t) => t.cost)).toBe(true);

    await page.goto(`${server.url}/ui/#/plans/${priced.id}/runs/${run.id}`);
    await view("plan-run");
    const costs = await page.locator('[data-testid="ranking"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.children[6]?.textContent));
    expect(costs).toEqual(report.targets.map((t) => expect.stringMatching(new RegExp(` ${t.cost!.currency}$`))));
    const svg = page.locator('div[data-chart="cost"] svg');
    await svg.waitFor(WAIT);
    const labels = await svg.locator("text").evaluateAll((texts) => texts.map((t) => t.textContent));
    expect(labels).toEqual(expect.arrayContaining(["cheap", "dear", "Cost (USD)"]));
    // One point per target: a symbol each, beside its label.
    expect(await svg.locator("path[fill='#2557c7']").count()).toBe(2);
    expect(await page.locator('[data-testid="no-costs"]').count()).toBe(0);
    await screenshot(page, SUITE, "7-cost");
  });

  it("marks a failed cell, with its error on hover, and counts it in the ranking", async () => {
    // A host where nothing listens: the target's session cannot open, its cell fails.
    const gone = { provider: { class: "existing-vm", name: "gone" }, vms: { host: "127.0.0.1", port: 1, vm_user: "nobody", password: "not-a-secret" } };
    const failing = await bw.createPlan({
      targets: [
        { label: "here", provider: "local", service: "default" },
        { label: "gone", config: gone as unknown as InlineConfig },
      ],
      benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: 0.2 } }],
    });
    const run = await bw.startPlanRun(failing.id);
    await page.goto(`${server.url}/ui/#/plans/${failing.id}/runs/${run.id}`);
    await view("plan-run");
    // A run with a failed cell ends failed; its other cells' figures are still reported.
    await runState("failed");
    const ended = await bw.getPlanRun(failing.id, run.id);
    const error = ended.cells.find((c) => c.target === "gone")!.error!;
    expect(error.length).toBeGreaterThan(0);
    const square = page.locator('[data-testid="matrix-cell"][data-target="gone"]');
    expect(await square.getAttribute("data-tone")).toBe("failed");
    expect(await square.getAttribute("title")).toBe(`failed: ${error}`);
    expect(await page.innerText('[data-testid="failed-cells"]')).toBe(`gone · idle/idle5 seconds=0.2: ${error}`);
    const row = page.locator('[data-testid="ranking"] tbody tr[data-target="gone"]');
    await row.waitFor(WAIT);
    expect(await row.locator("td").allInnerTexts()).toEqual(["–", "gone", "–", "0", "1", "0"]);
    expect(await page.getAttribute('[data-testid="matrix-cell"][data-target="here"]', "data-tone")).toBe("baseline");
    await square.hover();
    await screenshot(page, SUITE, "8-failed-cell");
  });

  it("asked nothing of any host but the server, and threw nothing", () => {
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
