// Issue 37, acceptance 4: a comparison with a margin gives each of the five verdicts (and
// inconclusive) on constructed data, and the dashboard's compare page, the plan report's HTML page
// and the CLI's `compare` show each with its sentence. The comparison is the engine's own
// (compareExecutions over constructed executions); the dashboard and the CLI read it from a
// stand-in API that answers nothing else. Screenshots of all three
// are kept under test-results/verdicts/ (copied to docs/images/ for docs/methodology.md).
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type { Plan } from "@benchwright/contract";
import { buildPlanReport, type ComparedRow, compareExecutions, type PlanRunCell, renderReport } from "@benchwright/engine";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIST_DIR, launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { serveStatic } from "../test/static-server.js";

const SUITE = "verdicts";
const WAIT = { timeout: 30_000 };
const VERDICTS = ["better", "worse", "equivalent", "not_worse", "not_better", "inconclusive"];
const CLI = join(dirname(createRequire(import.meta.url).resolve("@benchwright/cli/package.json")), "dist", "bin.js");

/** An execution whose `events_per_second` was measured on 4 machines, 3 runs each: machine means spread `spread` (relative) around `mean`. */
function side(n: number, serviceType: string, mean: number, spread: number): ComparedRow {
  const offsets = [-1.5, -0.5, 0.5, 1.5];
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    session_id: `10000000-0000-4000-8000-00000000000${n}`,
    provider: "aws",
    service_type: serviceType,
    tool_id: "sysbench",
    workload_id: "cpu",
    state: "completed",
    params: {},
    exec_env: { vms: [] },
    metrics: offsets.flatMap((o, vm) =>
      [-0.001, 0, 0.001].map((run, i) => ({
        name: "events_per_second",
        unit: "events/s",
        better: "higher" as const,
        tags: {},
        value: mean * (1 + o * spread + run),
        vm: `vm${vm}`,
        repetition: i + 1,
      })),
    ),
  };
}

// The baseline, then one side per verdict (as results/comparison-claims.test.ts constructs them).
const rows = [
  side(0, "m6i.large", 100, 0.002),
  side(1, "c6a.large", 110, 0.002),
  side(2, "t3.large", 90, 0.002),
  side(3, "m7i.large", 100.2, 0.002),
  side(4, "c7a.large", 103, 0.012),
  side(5, "m5.large", 97, 0.012),
  side(6, "t2.large", 100, 0.05),
];
const comparison = compareExecutions(rows, rows[0].id, 0.95, 0, { margin: 0.02 });

/** The same executions as a plan's run: a target per service type, one cell each, the plan's margin 2%. */
function reportHtml(): Promise<string> {
  const plan: Plan = {
    id: "7c1e9a3b-5d2f-4b8e-9c6a-1f0e2d3c4b5a",
    created: "2026-11-28 10:12:30",
    targets: rows.map((r) => ({ label: r.service_type, provider: "aws", service: r.service_type, class: "cloud", inline: false })),
    benchmarks: [{ tool: "sysbench", workload: "cpu", params: {}, zip: false, cells: 1 }],
    concurrency: { per_target: 1, overall: 4 },
    retries: 0,
    on_failure: "continue",
    keep_sessions: false,
    baseline: rows[0].service_type,
    margin: 0.02,
    cells: 1,
    executions: rows.length,
  };
  const cells: PlanRunCell[] = rows.map((r) => ({
    target: r.service_type,
    benchmark: 0,
    cell: 0,
    tool: "sysbench",
    workload: "cpu",
    params: {},
    state: "completed",
    execution_id: r.id,
    attempts: 1,
    error: null,
  }));
  return renderReport(buildPlanReport(plan, cells, new Map(rows.map((r) => [r.id, r])), { runId: "2b7e4c1a-9d3f-4e8b-a6c5-0f1e2d3c4b5a" }), "html");
}

/** Answers GET /api/v1/executions/compare with the comparison, every other request (the page's telemetry of each execution) 404. */
async function standInApi(): Promise<{ url: string; server: Server }> {
  const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*", "Access-Control-Allow-Methods": "*" };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "OPTIONS") res.writeHead(204, cors).end();
    else if (req.method === "GET" && url.pathname === "/api/v1/executions/compare")
      res.writeHead(200, { ...cors, "Content-Type": "application/json" }).end(JSON.stringify(comparison));
    else
      res
        .writeHead(404, { ...cors, "Content-Type": "application/problem+json" })
        .end(JSON.stringify({ type: "about:blank", title: "Not Found", status: 404, code: "not_found", detail: `No ${url.pathname} here` }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the five verdicts of a comparison with a margin, where users read them", () => {
  let api: Awaited<ReturnType<typeof standInApi>>;
  let site: Awaited<ReturnType<typeof serveStatic>>;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    assertBuilt();
    [api, site, browser] = await Promise.all([standInApi(), serveStatic(DIST_DIR), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = pageErrors(page);
    page.on("dialog", (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await new Promise((r) => api?.server.close(r));
  });

  it("are what compare answers on the constructed executions, each with its sentence", () => {
    const claims = comparison.metrics[0].figures.slice(1).map((f) => f.claim);
    expect(claims.map((c) => c?.verdict)).toEqual(VERDICTS);
    for (const c of claims) expect(c?.sentence).toMatch(/aws\/m6i\.large/);
  });

  it("shows each on the dashboard's compare page", async () => {
    const ids = rows.map((r) => r.id).join(",");
    await page.goto(`${site.url}/ui/?api=${encodeURIComponent(api.url)}#/compare?ids=${ids}&margin=0.02`);
    await page.waitForSelector('[data-testid="claims"] li', WAIT);
    const items = page.locator('[data-testid="claims"] li');
    expect(await items.evaluateAll((li) => li.map((e) => e.getAttribute("data-claim")))).toEqual(VERDICTS);
    for (const [i, f] of comparison.metrics[0].figures.slice(1).entries()) expect(await items.nth(i).innerText()).toContain(f.claim!.sentence);
    await page.locator('[data-testid="claims"]').scrollIntoViewIfNeeded();
    await screenshot(page, SUITE, "dashboard");
    expect(errors).toEqual([]);
  });

  it("shows each in the plan report's HTML page", async () => {
    const report = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await report.setContent(await reportHtml());
    const items = report.locator("#claims li");
    expect(await items.evaluateAll((li) => li.map((e) => e.getAttribute("data-claim")))).toEqual(VERDICTS);
    expect(await items.first().innerText()).toMatch(/c6a\.large is 10\.0% better than m6i\.large/);
    const full = await screenshot(report, SUITE, "report-page");
    await report.locator("#claims").screenshot({ path: join(dirname(full), "report-claims.png") });
    await report.close();
  });

  it("shows each in the CLI's compare, rendered as a terminal shows it", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "compare", ...rows.map((r) => r.id), "--margin", "0.02", "--url", api.url], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    for (const v of VERDICTS) expect(stdout).toMatch(new RegExp(`^\\s*${v.replace("_", "[ _]")}\\b`, "im"));
    for (const f of comparison.metrics[0].figures.slice(1)) expect(stdout.replace(/\s+/g, " ")).toContain(f.claim!.sentence.replace(/\s+/g, " "));
    const terminal = await browser.newPage({ viewport: { width: 1400, height: 600 } });
    const escaped = stdout.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    await terminal.setContent(
      `<body style="margin:0;background:#1e1e1e"><pre style="margin:0;padding:12px;color:#e6e6e6;font:13px/1.35 'DejaVu Sans Mono',monospace;white-space:pre-wrap">$ benchwright compare ${rows.length} executions --margin 0.02\n${escaped}</pre></body>`,
    );
    await screenshot(terminal, SUITE, "cli");
    await terminal.close();
  });
});
