import { describe, expect, it } from "vitest";
import { buildPlanReport } from "./plan-report.js";
import { reportHtml } from "./report-html.js";
import { RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

const EVIL = `<script>alert("x")</script>&`;
const run = syntheticRun(["here", EVIL]);
run.cells[0].params = { threads: 1, note: "<img src=x onerror=alert(1)>" };
const report = buildPlanReport(run.plan, run.cells, run.executions, { runId: RUN_ID });
const html = reportHtml(report);

describe("the report's HTML page", () => {
  it("stands alone: no script, no URL of any kind, a policy that forbids fetching", () => {
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(script|link|img|iframe|object|embed|image|use)\b/i);
    expect(html).not.toMatch(/<[^>]*\s(src|href|xlink:href)\s*=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
  });

  it("escapes every text of the plan: labels and params", () => {
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;");
    expect(html).toContain("note=&lt;img src=x onerror=alert(1)&gt;");
  });

  it("holds the ranking table, the matrix and two SVG charts drawn by ECharts", () => {
    const ranking = html.slice(html.indexOf('<table data-testid="ranking">'), html.indexOf("</table>", html.indexOf('data-testid="ranking"')));
    const order = [...ranking.matchAll(/<tr><td>(\d+)<\/td><th scope="row">([^<]*)/g)].map((m) => [m[1], m[2].trim()]);
    expect(order).toEqual([
      ["1", "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;"],
      ["2", "here"],
    ]);
    const charts = [...html.matchAll(/<figure class="chart" data-chart="(\w+)"><svg [^>]*viewBox="0 0 (\d+) (\d+)"/g)].map((m) => m[1]);
    expect(charts).toEqual(["ranking", "cells"]);
    expect(html.match(/<svg/g)).toHaveLength(2);
    // The bars: one per ranked target, and one per target and cell.
    expect(html.match(/<\/svg>/g)).toHaveLength(2);
  });

  it("colours the matrix where the verdict is significant and leaves it plain where it is not", () => {
    const matrix = html.slice(html.indexOf('<table data-testid="matrix">'), html.indexOf("</table>", html.indexOf('data-testid="matrix"')));
    const row = (label: string) => {
      const tr = matrix.slice(matrix.indexOf(`<tr><th scope="row">${label}</th>`));
      return [...tr.slice(0, tr.indexOf("</tr>")).matchAll(/<td([^>]*)>/g)].map((m) => m[1]);
    };
    const kind = (a: string) =>
      a.includes('class="better"') && a.includes("--shade") ? "better" : a.includes('class="failed"') ? "failed" : a.includes("style=") ? "coloured" : "plain";
    // The faster target: better, no difference, failed, better (qperf's latency halved); the baseline plain throughout.
    expect(row("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;").map(kind)).toEqual(["better", "plain", "failed", "better"]);
    expect(row("here").map(kind)).toEqual(["plain", "plain", "plain", "plain"]);
    expect(matrix).toContain('title="machine fast-1 did not answer on port 22"');
  });

  it("lists the failed cells with their errors", () => {
    const failures = html.slice(html.indexOf('<section id="failures">'));
    expect(failures).toContain("machine fast-1 did not answer on port 22");
    expect(failures).toContain("idle/idle5");
  });

  it("counts and shows a cancelled cell apart from a failed one, and not in red", () => {
    const stopped = syntheticRun();
    const cells = stopped.cells.map((c) =>
      c.target === "fast" && c.benchmark === 2 ? { ...c, state: "cancelled" as const, execution_id: null, error: "the run was cancelled" } : c,
    );
    const page = reportHtml(buildPlanReport(stopped.plan, cells, stopped.executions, { runId: RUN_ID }));
    const ranking = page.slice(page.indexOf('<table data-testid="ranking">'), page.indexOf("</table>", page.indexOf('data-testid="ranking"')));
    expect(ranking).toContain("<th>Failed</th><th>Cancelled</th>");
    expect(ranking).toMatch(/<th scope="row">fast<\/th><td>[^<]*<\/td><td>[^<]*<\/td><td>\d+<\/td><td>1<\/td><td>1<\/td>/);
    expect(page).toContain('<td class="cancelled" title="the run was cancelled">cancelled</td>');
    expect(page).toContain('<tr class="cancelled"><th scope="row">fast</th>');
  });
});
