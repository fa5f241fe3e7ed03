// The dashboard against the Prism mock, as it is developed: the contract's examples are its data.
import { startPrism, type RunningPrism } from "@benchwright/contract/prism";
import type { Comparison } from "@benchwright/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR, launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { readBarChart } from "../test/chart-reading.js";
import { serveStatic } from "../test/static-server.js";

const SUITE = "mock";
const WAIT = { timeout: 30_000 };
// The contract's examples (openapi.yaml, components/examples).
const IDLE_RUN = "9b2e4d6a-1c3f-4e5a-8b7d-0a1b2c3d4e5f";
const PLAN = "7c1e9a3b-5d2f-4b8e-9c6a-1f0e2d3c4b5a";
const PLAN_RUN = "5e8d2c1a-9b7f-4a3e-8d6c-2b1a0f9e8d7c";
const CANCELLED_RUN = "2b7f4e9a-6c1d-4e3f-8a5b-9d0c1e2f3a4b";
const SYSBENCH_RUNS = ["4d8f2a61-7b3e-4c9d-8a15-2e6f9b0c3d71", "1c5d8e2f-3a4b-4c6d-9e7f-8a9b0c1d2e3f", "6f1b8d04-3e5c-4a2f-8d79-4c8b2e3f5a91"];

describe("the dashboard against the Prism mock", () => {
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
    // Another origin than the page's: the mock's CORS headers let the SDK call it.
    base = `${site.url}/ui/?api=${encodeURIComponent(prism.url)}`;
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await prism?.stop();
  });

  const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`, WAIT);

  it("lists the sessions with their providers and executions", async () => {
    await page.goto(`${base}#/sessions`);
    await view("sessions");
    const rows = page.locator('[data-testid="session-row"]');
    expect(await rows.count()).toBe(3);
    const text = await page.locator('[data-testid="sessions"]').innerText();
    for (const provider of ["local", "lab", "aws"]) expect(text).toContain(provider);
    expect(await rows.first().locator(".badges .state").count()).toBe(2);
    await screenshot(page, SUITE, "1-sessions");
  });

  it("opens a session and its executions", async () => {
    await page.locator('[data-testid="session-row"] a').first().click();
    await view("sessions-one");
    expect(await page.locator('[data-testid="execution-row"]').count()).toBe(2);
    await screenshot(page, SUITE, "2-session");
  });

  it("shows an execution: state, steps, machines' facts, metrics chart and log", async () => {
    await page.goto(`${base}#/executions/${IDLE_RUN}`);
    await view("executions-one");
    expect(await page.locator('[data-testid="execution-state"]').getAttribute("data-state")).toBe("completed");
    expect(await page.locator('[data-testid="steps"] tbody tr').count()).toBe(2);
    expect(await page.locator('[data-testid="machines"]').innerText()).toContain("Intel(R) Xeon(R) CPU");
    // The code it measured, as the example's client (a CI's job) named it.
    expect(await page.innerText('[data-testid="execution-branch"]')).toBe("main");
    expect(await page.innerText('[data-testid="execution-commit"]')).toBe("3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d");
    // What produced its figures, as the example's run recorded it.
    const provenance = await page.locator('[data-testid="provenance"]').innerText();
    expect(provenance).toContain("idle / idle5");
    expect(provenance).toContain("0c9a7e5b3d1f");
    expect(provenance).toContain("seconds=5");
    await page.waitForSelector('div[data-chart="metrics"] svg', WAIT);
    const { bars, resolution } = await readBarChart(page.locator('div[data-chart="metrics"]'));
    expect(bars).toHaveLength(1);
    expect(Math.abs(bars[0]!.value - 5.004)).toBeLessThanOrEqual(resolution);
    expect(bars[0]!.low).toBeUndefined();
    await page.waitForFunction(() => document.querySelector('[data-testid="log"]')?.textContent?.includes("Idling for 5 seconds"), undefined, WAIT);
    await screenshot(page, SUITE, "3-execution");
  });

  it("compares picked executions: one bar per execution per metric, each with its error bar", async () => {
    await page.goto(`${base}#/executions`);
    await view("executions");
    expect(await page.locator('[data-testid="execution-row"]').count()).toBe(6);
    for (const id of SYSBENCH_RUNS) await page.locator(`[data-testid="execution-row"][data-id="${id}"] input[type=checkbox]`).check();
    await page.locator('[data-testid="compare-selected"]').click();
    await view("compare");

    const comparison = (await (await fetch(`${prism.url}/api/v1/executions/compare?ids=${SYSBENCH_RUNS.join(",")}`)).json()) as Comparison;
    const charts = page.locator('div[data-chart="comparison"]');
    expect(await charts.count()).toBe(2);
    await page.waitForFunction(() => document.querySelectorAll('div[data-chart="comparison"] svg').length === 2, undefined, WAIT);
    for (const [i, chart] of (await charts.all()).entries()) {
      const { bars, resolution } = await readBarChart(chart);
      // One bar per execution, in the order picked, each at its mean with its mean's interval as whisker.
      expect(bars.map((b) => b.label.split(" ")[0])).toEqual(SYSBENCH_RUNS.map((id) => id.split("-")[0]));
      const figures = comparison.metrics[i]!.figures;
      expect(figures.map((f) => f.execution_id)).toEqual(SYSBENCH_RUNS);
      for (const [j, bar] of bars.entries()) {
        const f = figures[j]!;
        expect(Math.abs(bar.value - f.mean)).toBeLessThanOrEqual(resolution);
        expect(Math.abs(bar.low! - f.ci_low)).toBeLessThanOrEqual(resolution);
        expect(Math.abs(bar.high! - f.ci_high)).toBeLessThanOrEqual(resolution);
        expect(bar.low).toBeLessThan(bar.high!);
      }
    }
    const verdicts = await page.locator('[data-testid="verdict"] .verdict').allInnerTexts();
    expect(verdicts).toEqual(["baseline", "worse", "better", "baseline", "worse", "better"]);
    expect(await page.locator('[data-testid="compared-executions"]').innerText()).toContain("AMD EPYC 7R13 Processor");
    // The example's sides ran sysbench 1.0.20+ds-5 and 1.0.20+ds-1: the server's flag lists each, and the table shows each side's version.
    expect(comparison.tool_versions_differ.length).toBeGreaterThan(1);
    expect(await page.locator('[data-testid="tool-versions-differ"] li').allInnerTexts()).toEqual(
      comparison.tool_versions_differ.map((s) => `${s.execution_id.split("-")[0]} ${s.version}`),
    );
    expect(await page.locator('[data-testid="tool-version"]').allInnerTexts()).toEqual([
      "sysbench 1.0.20+ds-5",
      "sysbench 1.0.20+ds-1",
      "sysbench 1.0.20+ds-1",
    ]);
    await screenshot(page, SUITE, "4-comparison");
    expect(errors).toEqual([]);
  });

  it("shows each execution's params in the lists and on the comparison, and flags different params as it flags tool versions", async () => {
    await page.goto(`${base}#/executions`);
    await view("executions");
    const listed = (await (await fetch(`${prism.url}/api/v1/executions/`)).json()) as Array<{ id: string; params: Record<string, unknown> }>;
    const shown = await page
      .locator('[data-testid="execution-row"]')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute("data-id"), tr.querySelector('[data-testid="row-params"]')?.textContent]));
    expect(shown).toEqual(
      listed.map((e) => [
        e.id,
        Object.entries(e.params)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(", "),
      ]),
    );
    // Two sides of one workload, one slept 0 s, the other 0.5 s: the server's flag names both.
    const example = (await (await fetch(`${prism.url}/api/v1/executions/compare?ids=${SYSBENCH_RUNS.join(",")}`)).json()) as Comparison;
    const [a, b] = example.executions;
    const differ: Comparison = {
      ...example,
      executions: [
        { ...a!, params: { seconds: 0 } },
        { ...b!, params: { seconds: 0.5 } },
      ],
      tool_versions_differ: [],
      params_differ: [
        { execution_id: a!.id, tool: a!.tool, workload: a!.workload, params: { seconds: 0 } },
        { execution_id: b!.id, tool: b!.tool, workload: b!.workload, params: { seconds: 0.5 } },
      ],
    };
    await page.route("**/api/v1/executions/compare?*", (route) => route.fulfill({ json: differ }));
    await page.goto(`${base}#/compare?ids=${a!.id},${b!.id}`);
    await view("compare");
    expect(await page.locator('[data-testid="params-differ"] li').allInnerTexts()).toEqual([
      `${a!.id.split("-")[0]} seconds=0`,
      `${b!.id.split("-")[0]} seconds=0.5`,
    ]);
    expect(await page.locator('[data-testid="compared-params"]').allInnerTexts()).toEqual(["seconds=0", "seconds=0.5"]);
    expect(await page.locator('[data-testid="compared-params"].version-differs').count()).toBe(2);
    await screenshot(page, SUITE, "4b-params-differ");
    await page.unroute("**/api/v1/executions/compare?*");
    expect(errors).toEqual([]);
  });

  it("keeps a comparison of fourteen metrics readable: an overview, charts grouped by unit and folded, axes from zero", async () => {
    // The contract's comparison, widened to fourteen metrics of four units as a tool like fio reports them.
    const example = (await (await fetch(`${prism.url}/api/v1/executions/compare?ids=${SYSBENCH_RUNS.join(",")}`)).json()) as Comparison;
    const units = ["events/s", "ms", "MiB/s", "%"];
    const wide: Comparison = {
      ...example,
      metrics: Array.from({ length: 14 }, (_, i) => ({
        ...example.metrics[i % 2]!,
        name: `metric_${String(i).padStart(2, "0")}`,
        unit: units[i % 4]!,
        // The last: two spread values, never negative, whose interval reaches below zero.
        ...(i === 13
          ? {
              figures: example.metrics[0]!.figures.map((f) => ({
                ...f,
                values: [0.1, 0.9],
                min: 0.1,
                max: 0.9,
                mean: 0.5,
                ci_low: -4.58,
                ci_high: 5.58,
              })),
            }
          : {}),
      })),
    };
    await page.route("**/api/v1/executions/compare?*", (route) => route.fulfill({ json: wide }));
    await page.goto(`${base}#/compare?ids=${SYSBENCH_RUNS.join(",")}`);
    await view("compare");
    expect(await page.locator('[data-testid="metrics-overview"] tr[data-metric]').count()).toBe(14);
    const groups = page.locator('[data-testid="metric-group"]');
    expect(
      await groups.evaluateAll((ds) =>
        ds.map((d) => [d.getAttribute("data-unit"), d.querySelectorAll("figure.metric").length, (d as HTMLDetailsElement).open]),
      ),
    ).toEqual([
      ["events/s", 4, false],
      ["ms", 4, false],
      ["MiB/s", 3, false],
      ["%", 3, false],
    ]);
    await screenshot(page, SUITE, "5-comparison-folded");

    // A name in the overview opens its group at its chart.
    await page.locator('[data-testid="metrics-overview"] tr[data-metric="metric_13"] button').click();
    expect(await page.locator('[data-testid="metric-group"][data-unit="ms"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    // Drawn once its group opens: a folded chart has no width to draw at.
    await page.waitForSelector('figure.metric[data-metric="metric_13"] div.chart svg', WAIT);
    const chart = page.locator('figure.metric[data-metric="metric_13"] div.chart');
    const { ticks, bars, resolution } = await readBarChart(chart);
    expect(ticks[0]).toBe("0");
    expect(ticks.every((t) => !t.startsWith("-"))).toBe(true);
    expect(bars).toHaveLength(3);
    expect(Math.abs(bars[0]!.low!)).toBeLessThanOrEqual(resolution);
    expect(Math.abs(bars[0]!.high! - 5.58)).toBeLessThanOrEqual(resolution);
    // Drawn from zero, the interval is still told as computed: in the tooltip of the bar's row.
    await chart.hover({ position: { x: 300, y: 23 } });
    await expect.poll(() => chart.innerText(), WAIT).toContain("[-4.58, 5.58]");

    await page.locator('[data-testid="expand-all"]').click();
    expect(await groups.evaluateAll((ds) => ds.every((d) => (d as HTMLDetailsElement).open))).toBe(true);
    await screenshot(page, SUITE, "6-comparison-expanded");
    await page.locator('[data-testid="collapse-all"]').click();
    expect(await groups.evaluateAll((ds) => ds.some((d) => (d as HTMLDetailsElement).open))).toBe(false);
    await page.unroute("**/api/v1/executions/compare?*");
    expect(errors).toEqual([]);
  });

  it("shows the plans, a plan with its runs, and a run's matrix, ranking and geometric-mean chart", async () => {
    await page.goto(`${base}#/plans`);
    await view("plans");
    const row = page.locator(`[data-testid="plan-row"][data-id="${PLAN}"]`);
    expect(await row.locator('[data-testid="plan-size"]').innerText()).toBe("2 targets × 7 cells = 14 executions");
    await row.locator("a").click();
    await view("plans-one");
    expect(await page.locator('[data-testid="plan-targets"] tbody tr').count()).toBe(2);
    expect(await page.locator('[data-testid="plan-benchmarks"] tbody').innerText()).toContain("threads = 1, 4, 16; duration = 10, 20");
    // Its two runs: one cancelled before its cells began, then the report's, ended failed (a cell of the lab's failed).
    expect(await page.getAttribute(`[data-testid="plan-run-row"][data-id="${CANCELLED_RUN}"]`, "data-state")).toBe("cancelled");
    expect(await page.getAttribute(`[data-testid="plan-run-row"][data-id="${PLAN_RUN}"]`, "data-state")).toBe("failed");
    await screenshot(page, SUITE, "7-plan");

    await page.click(`[data-testid="plan-run-row"][data-id="${PLAN_RUN}"] a`);
    await view("plan-run");
    // The report's run has ended: its sysbench cell measured on both targets (the lab better), its idle cell on the baseline, the lab's failed.
    expect(await page.getAttribute('[data-testid="plan-run-state"]', "data-state")).toBe("failed");
    expect(await page.innerText('[data-testid="plan-run-branch"]')).toBe("main");
    expect(await page.innerText('[data-testid="plan-run-commit"]')).toBe("3f9c2d1e5a7b9c0d2e4f6a8b0c1d3e5f7a9b1c2d");
    expect(await page.locator('[data-testid="cancel-plan-run"]').isVisible()).toBe(false);
    const tones = await page
      .locator('[data-testid="matrix-cell"]')
      .evaluateAll((tds) => tds.map((td) => `${td.getAttribute("data-target")} ${td.getAttribute("data-tone")}`));
    expect(tones).toEqual(["here/default baseline", "here/default baseline", "lab better", "lab failed"]);
    expect(await page.locator('[data-testid="ranking"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-target")))).toEqual([
      "lab",
      "here/default",
    ]);
    const { bars, resolution } = await readBarChart(page.locator('div[data-chart="geomean"]'));
    expect(bars.map((b) => b.label)).toEqual(["lab", "here/default"]);
    expect(Math.abs(bars[0]!.value - 1.5)).toBeLessThanOrEqual(resolution);
    expect(await page.innerText('[data-testid="no-costs"]')).toContain("No prices were set");
    await screenshot(page, SUITE, "8-plan-run");
    expect(errors).toEqual([]);
  });
});
