import { describe, expect, it } from "vitest";
import { buildPlanReport } from "./plan-report.js";
import { targetColours } from "./report-charts.js";
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

  it("keeps the matrix's red and green light enough for its dark text to read (contrast at least 7:1)", () => {
    // `fast` as the baseline: `here` is then twice as slow, the strongest red.
    const swapped = syntheticRun();
    const page = reportHtml(buildPlanReport({ ...swapped.plan, baseline: "fast" }, swapped.cells, swapped.executions, { runId: RUN_ID }));
    const shades = [...page.matchAll(/--shade: hsl\((\d+) (\d+)% ([\d.]+)%\)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    expect(shades.length).toBeGreaterThan(1);
    expect(shades.some(([hue]) => hue === 0)).toBe(true);
    for (const [hue, saturation, lightness] of shades) expect(contrast(hslToRgb(hue, saturation, lightness), [0x1d, 0x22, 0x30])).toBeGreaterThanOrEqual(7);
  });

  it("gives each target its colour by its place in the plan, whatever its rank, and labels the baseline's line above the plot", () => {
    const again = syntheticRun();
    const plain = buildPlanReport(again.plan, again.cells, again.executions, { runId: RUN_ID });
    // The same plan's next run, where the ranking turned: `here` first.
    const other = { ...plain, targets: [...plain.targets].reverse().map((t, i) => ({ ...t, rank: i + 1 })) };
    expect(plain.targets.map((t) => t.target)).toEqual(["fast", "here"]);
    expect(targetColours(plain)).toEqual(targetColours(other));
    expect([...targetColours(plain).keys()]).toEqual(["here", "fast"]);
    const colourOfFast = targetColours(plain).get("fast")!;
    for (const r of [plain, other]) expect(reportHtml(r)).toContain(`fill="${colourOfFast}"`);
    const label = /<text [^>]*transform="translate\([\d.]+ ([\d.]+)\)"[^>]*>baseline \(1\)<\/text>/.exec(html);
    expect(label).not.toBeNull();
    // The plot starts 60 px down; the axis' tick labels lie below it.
    expect(Number(label![1])).toBeLessThan(60);
  });
});

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return 255 * (l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return [f(0), f(8), f(4)];
}

/** WCAG 2's contrast ratio of two sRGB colours. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = (rgb: readonly number[]) => {
    const [r, g, bl] = rgb.map((c) => {
      const x = c / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
