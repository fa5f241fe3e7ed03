import { describe, expect, it } from "vitest";
import { buildPlanReport } from "./plan-report.js";
import { reportHtml } from "./report-html.js";
import { RUN_ID, syntheticRun } from "./test-support/synthetic-run.js";

const EVIL = `<script>alert("x")</script>&`;
const run = syntheticRun(["here", EVIL]);

describe("the report page's claims and variability", () => {
  it("lists each claim's sentence, escaped, with its adjusted p-value", () => {
    const html = reportHtml(buildPlanReport({ ...run.plan, margin: 0.02 }, run.cells, run.executions, { runId: RUN_ID }));
    const claims = html.slice(html.indexOf('<section id="claims">'), html.indexOf("</section>", html.indexOf('<section id="claims">')));
    expect(claims).toContain("With a margin of 2.0%");
    expect(claims).toMatch(
      /<li data-claim="better"><b>better<\/b>: &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&amp; is 100\.0% better than here on events_per_second .*<small>adjusted p /,
    );
    expect(claims).not.toContain("<script>");
  });

  it("has no claims section without a margin, and a variability row per target and cell either way", () => {
    const html = reportHtml(buildPlanReport(run.plan, run.cells, run.executions, { runId: RUN_ID }));
    expect(html).not.toContain('<section id="claims">');
    const table = html.slice(html.indexOf('<table data-testid="variability">'));
    // Three cells measured by both targets, one (the failed one) by the baseline alone.
    expect(table.slice(0, table.indexOf("</table>")).match(/<tr><th scope="row">/g)).toHaveLength(7);
    expect(table).toContain("one machine only");
  });
});
