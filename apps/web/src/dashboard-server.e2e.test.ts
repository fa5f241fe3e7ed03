// The dashboard served by the real server at /ui/, on a real engine running real (idle) steps.
import type { BenchwrightClient, Execution, Session } from "@benchwright/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, pageErrors, screenshot } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { readBarChart } from "../test/chart-reading.js";
import { type RealServer, startRealServer } from "../test/real-server.js";

const SUITE = "server";
const TOKEN = "dashboard-e2e-token";
const WAIT = { timeout: 60_000 };

describe("the dashboard served by the real server", () => {
  let server: RealServer;
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
    // With a token: the page must ask for it, and the static files must not.
    server = await startRealServer(TOKEN);
    ({ url, bw } = server);

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
    await server?.close();
  });

  const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`, WAIT);
  const stateIs = (state: string) => page.waitForSelector(`[data-testid="execution-state"][data-state="${state}"]`, WAIT);
  const idInHash = (kind: string) => page.evaluate((k) => location.hash.match(new RegExp(`^#/${k}/([0-9a-f-]{36})`))?.[1] ?? "", kind);

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
    await page.waitForSelector('div[data-chart="metrics"] svg', WAIT);
    expect((await readBarChart(page.locator('div[data-chart="metrics"]'))).bars).toHaveLength(1);
    await page.waitForFunction(() => document.querySelector('[data-testid="log"]')?.textContent?.includes("idle_seconds"), undefined, WAIT);
    expect(await page.locator('[data-testid="steps"] tbody tr').count()).toBe(2);
    // Under the run's figures, this machine's telemetry during the run: its chart and its steal and iowait.
    await page.waitForSelector('figure.telemetry div[data-chart="telemetry"] svg', WAIT);
    expect(await page.locator('figure.telemetry [data-testid="telemetry-summary"]').innerText()).toMatch(
      /^steal [\d.]+% \(max [\d.]+%\), iowait [\d.]+%, run queue max \d+ \(\d+ CPUs\)$/,
    );
    await screenshot(page, SUITE, "2-execution");
  });

  it("compares the two executions: one bar each, each with its error bar", async () => {
    await page.goto(`${url}/ui/#/executions`);
    await view("executions");
    for (const id of [done.id, live.id]) await page.locator(`[data-testid="execution-row"][data-id="${id}"] input[type=checkbox]`).check();
    await page.locator('[data-testid="compare-selected"]').click();
    await view("compare");
    const chart = page.locator('figure.metric[data-metric="idle_seconds"] div[data-chart="comparison"]');
    expect(await chart.count()).toBe(1);
    const { bars, resolution } = await readBarChart(chart);
    // One bar per execution, in the order picked, each at its mean with its mean's interval as whisker.
    expect(bars.map((b) => b.label.split(" ")[0])).toEqual([done.id, live.id].map((id) => id.split("-")[0]));
    const { figures } = (await bw.compareExecutions([done.id, live.id])).metrics.find((m) => m.name === "idle_seconds")!;
    for (const [i, bar] of bars.entries()) {
      expect(Math.abs(bar.value - figures[i]!.mean)).toBeLessThanOrEqual(resolution);
      expect(Math.abs(bar.low! - figures[i]!.ci_low)).toBeLessThanOrEqual(resolution);
      expect(Math.abs(bar.high! - figures[i]!.ci_high)).toBeLessThanOrEqual(resolution);
    }
    const verdicts = await page.locator('[data-testid="verdict"] .verdict').allInnerTexts();
    expect(verdicts[0]).toBe("baseline");
    // Each side's steal and iowait during its run, as its telemetry says.
    const sides = await page.locator('[data-testid="compared-executions"] [data-testid="steal-iowait"]').allInnerTexts();
    expect(sides).toHaveLength(2);
    for (const text of sides) expect(text).toMatch(/^steal [\d.]+% \(max [\d.]+%\), iowait [\d.]+%$/);
    await screenshot(page, SUITE, "3-comparison");
    expect(errors).toEqual([]);
  });

  // The whole flow through the page's own forms and buttons, as a user drives it.
  let opened: string;
  let created: string;
  let repeated: string;

  it("shows the API's 400 for a pasted configuration it refuses, then opens sessions on a pasted (JSON) and on the stored local configuration", async () => {
    await page.goto(`${url}/ui/#/sessions`);
    await view("sessions");
    await page.check('[data-testid="new-session"] input[name=form][value=inline]');
    await page.fill('[data-testid="inline-config"]', "provider:\n  class: no-such-class\n  name: pasted\ndefault: {}\n");
    await page.click('[data-testid="open-session"]');
    const problem = page.locator('[data-testid="new-session"] [data-testid="problem"]');
    await problem.waitFor(WAIT);
    expect(await problem.getAttribute("data-status")).toBe("400");
    expect(await problem.getAttribute("data-code")).toBe("unknown_provider_class");
    await screenshot(page, SUITE, "4-new-session-refused");

    // The same form takes JSON, and the text does not stay in the page once sent.
    await page.fill('[data-testid="inline-config"]', JSON.stringify({ provider: { class: "local", name: "pasted" }, default: {} }));
    await page.click('[data-testid="open-session"]');
    await view("sessions-one");
    expect((await bw.getSession(await idInHash("sessions"))).provider).toMatchObject({ id: "pasted", class: "local" });
    await page.goto(`${url}/ui/#/sessions`);
    await view("sessions");
    await page.check('[data-testid="new-session"] input[name=form][value=stored]');
    await page.selectOption('[data-testid="stored-provider"]', JSON.stringify(["local", "default"]));
    await page.click('[data-testid="open-session"]');
    await view("sessions-one");
    opened = await idInHash("sessions");
    expect(await page.getAttribute('[data-testid="session-state"]', "data-state")).toBe("active");
    expect((await bw.getSession(opened)).provider).toMatchObject({ id: "local", type: "default" });
  });

  it("creates an execution from the catalogue with parameters from the workload's declarations; the API's 400 shows at the field", async () => {
    await page.selectOption('[data-testid="tool"]', "idle");
    await page.selectOption('[data-testid="workload"]', "idle5");
    const seconds = page.locator('[data-testid="new-execution"] #param-seconds');
    expect(await seconds.inputValue()).toBe("5");
    expect([await seconds.getAttribute("min"), await seconds.getAttribute("max")]).toEqual(["0", "100"]);
    // Past the browser's own check of the bounds, as a value it cannot check would be: the API's problem shows.
    await page.$eval('[data-testid="new-execution"]', (form) => ((form as HTMLFormElement).noValidate = true));
    await seconds.fill("500");
    await page.click('[data-testid="create-execution"]');
    await page.waitForSelector('[data-testid="param-error-seconds"]:not(:empty)', WAIT);
    expect(await page.getAttribute('[data-testid="new-execution"] [data-testid="problem"]', "data-code")).toBe("validation_failed");
    expect(await page.innerText('[data-testid="param-error-seconds"]')).toContain("100");
    await screenshot(page, SUITE, "5-new-execution-refused");
    expect((await bw.getSession(opened)).executions).toHaveLength(0);

    await seconds.fill("1");
    await page.click('[data-testid="create-execution"]');
    await view("executions-one");
    created = await idInHash("executions");
    expect((await bw.getExecution(created)).params).toEqual({ seconds: 1 });
    await stateIs("created");
    // The workload's name and description speak of its default (5 s): the page says what this one uses.
    const title = await page.innerText('[data-testid="execution-title"]');
    expect(title).toContain("seconds = 1 s");
    expect(title).not.toContain("Idle 5 s");
    expect(await page.innerText('[data-testid="execution-description"]')).toContain("Ran with seconds = 1 s (default 5 s)");
  });

  it("prepares, runs and runs it again from its page, which follows each state live without a reload", async () => {
    // Every state the page shows, as it shows it; and a mark that a reload would wipe.
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[]; sameDocument: boolean };
      w.seen = [];
      w.sameDocument = true;
      new MutationObserver(() => {
        const state = document.querySelector('[data-testid="execution-state"]')?.getAttribute("data-state");
        if (state && w.seen[w.seen.length - 1] !== state) w.seen.push(state);
      }).observe(document.getElementById("view")!, { subtree: true, childList: true, attributes: true });
    });
    await page.click('[data-testid="prepare"]');
    await stateIs("prepared");
    await page.click('[data-testid="run"]');
    await stateIs("completed");
    await page.waitForSelector('div[data-chart="metrics"] svg', WAIT);
    const { bars } = await readBarChart(page.locator('div[data-chart="metrics"]'));
    expect(bars).toHaveLength(1);
    expect(bars[0]!.low).toBeUndefined();
    await screenshot(page, SUITE, "6-executed");

    expect(await page.textContent('[data-testid="run"]')).toBe("Run again");
    await page.click('[data-testid="run"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="steps"] tbody tr').length === 3, undefined, WAIT);
    await stateIs("completed");
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.indexOf("prepared")).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf("completed")).toBeGreaterThan(seen.indexOf("prepared"));
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect((await bw.getExecution(created)).steps.map((st) => `${st.step}#${st.attempt} ${st.state}`)).toEqual([
      "prepare#1 succeeded",
      "run#1 succeeded",
      "run#2 succeeded",
    ]);
  });

  it("repeats it three times: a new execution of the same parameters, whose page draws each mean's error bar", async () => {
    await page.fill('[data-testid="repeat-count"]', "3");
    await page.click('[data-testid="repeat"]');
    await page.waitForFunction((id) => /^#\/executions\//.test(location.hash) && !location.hash.includes(id), created, WAIT);
    await view("executions-one");
    repeated = await idInHash("executions");
    await stateIs("completed");
    const record = await bw.getExecution(repeated);
    expect(record.params).toEqual({ seconds: 1 });
    expect(record.repetitions).toEqual({ count: 3 });
    expect(record.metrics[0]!.stats!.n).toBe(3);

    await page.waitForSelector('div[data-chart="metrics"] svg', WAIT);
    const { bars, resolution } = await readBarChart(page.locator('div[data-chart="metrics"]'));
    expect(bars).toHaveLength(1);
    const stats = record.metrics[0]!.stats!;
    expect(Math.abs(bars[0]!.value - record.metrics[0]!.value)).toBeLessThanOrEqual(resolution);
    // The whisker's ends, read back from the axis, are the mean's interval (of no width when the figures are equal).
    expect(Math.abs(bars[0]!.low! - stats.ci_low)).toBeLessThanOrEqual(resolution);
    expect(Math.abs(bars[0]!.high! - stats.ci_high)).toBeLessThanOrEqual(resolution);
    expect(await page.innerText('[data-testid="execution-title"]')).toContain("seconds = 1 s, ×3");
    await screenshot(page, SUITE, "7-repeated");
  });

  it("creates, prepares and runs in one go, cancels the running step from its page, and runs it again in the same session", async () => {
    const other = await bw.createSession({ provider: "local", service: "default" });
    await page.goto(`${url}/ui/#/sessions/${other.id}`);
    await view("sessions-one");
    await page.selectOption('[data-testid="tool"]', "idle");
    await page.selectOption('[data-testid="workload"]', "idle5");
    await page.fill('[data-testid="new-execution"] #param-seconds', "8");
    await page.click('[data-testid="create-and-run"]');
    await view("executions-one");
    const long = { id: await idInHash("executions") };
    await stateIs("running");
    const cancel = page.locator('[data-testid="execution-actions"] [data-testid="cancel-step"]');
    expect(await cancel.innerText()).toBe("Cancel");
    await screenshot(page, SUITE, "7b-cancel");
    await cancel.click();
    await stateIs("run_failed");
    const record = await bw.getExecution(long.id);
    expect(record.steps.map((st) => `${st.step} ${st.state}`)).toEqual(["prepare succeeded", "run failed"]);
    expect(Number(record.steps[1]!.duration)).toBeLessThan(8);
    expect(record.steps[1]!.error).toMatch(/^run 1 of idle\/idle5 was cancelled at /);
    // The session stays: nothing says otherwise on the page, and the run goes again from it.
    expect((await bw.getSession(other.id)).state).toBe("active");
    expect(await page.locator('[data-testid="execution-session-state"]').count()).toBe(0);
    expect(await cancel.isHidden()).toBe(true);
    await page.waitForSelector('[data-testid="run"]:not([disabled])', WAIT);
    expect(await page.innerText('[data-testid="run"]')).toBe("Run again");
    await page.click('[data-testid="run"]');
    await stateIs("completed");
    const again = await bw.getExecution(long.id);
    expect(again.steps.map((st) => `${st.step} ${st.attempt} ${st.state}`)).toEqual(["prepare 1 succeeded", "run 1 failed", "run 2 succeeded"]);
    expect(again.metrics.map((m) => m.name)).toEqual(["idle_seconds"]);
    expect(errors).toEqual([]);
  });

  it("deletes the session from its page: it stays, greyed, and its executions still open", async () => {
    await page.goto(`${url}/ui/#/sessions/${opened}`);
    await view("sessions-one");
    // Shared with the team from its page, then no longer: the API's record follows each click.
    expect(await page.getAttribute('[data-testid="session-shared"]', "data-shared")).toBe("false");
    await page.click('[data-testid="toggle-shared"]');
    await page.waitForSelector('[data-testid="session-shared"][data-shared="true"]', WAIT);
    expect((await bw.getSession(opened)).shared).toBe(true);
    await page.click('[data-testid="toggle-shared"]');
    await page.waitForSelector('[data-testid="session-shared"][data-shared="false"]', WAIT);
    expect((await bw.getSession(opened)).shared).toBe(false);
    await page.click('[data-testid="delete-session"]');
    await page.click('[data-testid="confirm-delete-session"]');
    await page.waitForSelector('[data-testid="session-state"][data-state="deleted"]', WAIT);
    expect(await page.locator("main.deleted").count()).toBe(1);
    // The server answers the deleted session 410; the page says when it was deleted, from that answer.
    expect(await page.textContent('[data-testid="session-deleted"]')).toMatch(/^ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}: its machines are gone/);
    expect(await page.locator('[data-testid="new-execution"]').count()).toBe(0);
    const rows = page.locator('[data-testid="execution-row"]');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-id")))).toEqual([created, repeated]);
    await screenshot(page, SUITE, "8-deleted-session");

    await page.click(`[data-testid="execution-row"][data-id="${repeated}"] a`);
    await view("executions-one");
    await stateIs("completed");
    expect(await page.getAttribute('[data-testid="execution-session-state"]', "data-state")).toBe("deleted");
    const { bars } = await readBarChart(page.locator('div[data-chart="metrics"]'));
    expect(bars.filter((b) => b.low !== undefined && b.high !== undefined)).toHaveLength(1);
    expect(await page.isHidden('[data-testid="run"]')).toBe(true);
    expect(await page.innerText('[data-testid="execution-actions"]')).toContain("Its session is deleted");
    await screenshot(page, SUITE, "9-execution-of-deleted-session");
    expect(errors).toEqual([]);
  });

  // Needs the API's deleted sessions (GET /sessions/{id} answers them, `?state=deleted` lists them).
  it("lists the deleted session greyed under its filter only, with its record", async () => {
    await page.goto(`${url}/ui/#/sessions`);
    await view("sessions");
    expect(await page.locator(`[data-testid="session-row"][data-id="${opened}"]`).count()).toBe(0);
    await page.selectOption('[data-testid="sessions-filter"]', "deleted");
    const row = page.locator(`[data-testid="session-row"][data-id="${opened}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute("class")).toContain("deleted");
    expect(await row.getAttribute("data-state")).toBe("deleted");
    await screenshot(page, SUITE, "10-deleted-sessions");
    await row.locator("a").first().click();
    await view("sessions-one");
    expect(await page.innerText("dl.facts")).toContain("Provider");
    expect(errors).toEqual([]);
  });

  // Issue 38: a team's definition, pushed here through the API, is listed beside the built-in ones
  // with its source and version; its page shows each version's digest; a run names its version.
  it("lists the benchmarks with source and version, shows a pushed definition's two versions, and the version an execution ran", async () => {
    const echo = (run: string) => ({
      id: "team-echo",
      tool_name: "Echo",
      parser: "keyvalue",
      metrics: { answer: { unit: "1", better: "higher" } },
      workloads: [{ id: "answer", scripts: { run } }],
    });
    const first = await bw.putBenchmark("team-echo", echo("bw_metric answer 42 1"));
    const ran = await bw.createExecution((await bw.createSession({ provider: "local", service: "default" })).id, { tool: "team-echo", workload: "answer" });
    await bw.prepare(ran.id);
    await bw.run(ran.id);
    const second = await bw.putBenchmark("team-echo", echo("bw_metric answer 43 1"));
    expect([first.version, second.version]).toEqual([1, 2]);

    await page.goto(`${url}/ui/#/benchmarks`);
    await view("benchmarks");
    const team = page.locator('[data-testid="benchmark-row"][data-id="team-echo"]');
    expect(await team.locator('[data-testid="benchmark-source"]').innerText()).toBe("API");
    expect(await team.locator('[data-testid="benchmark-version"]').innerText()).toBe("2");
    expect(await page.locator('[data-testid="benchmark-row"][data-id="idle"] [data-testid="benchmark-source"]').innerText()).toBe("built in");
    await screenshot(page, SUITE, "11-benchmarks");

    await team.locator("a").click();
    await view("benchmarks-one");
    const versions = page.locator('[data-testid="benchmark-version-row"]');
    expect(await versions.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-version")))).toEqual(["2", "1"]);
    const digests = await versions.locator("code").evaluateAll((codes) => codes.map((c) => c.getAttribute("title")));
    expect(digests).toEqual([second.digest, first.digest]);
    expect(await page.innerText('[data-testid="benchmark-document"]')).toContain("bw_metric answer 43 1");
    await screenshot(page, SUITE, "12-benchmark-history");

    await page.goto(`${url}/ui/#/executions/${ran.id}`);
    await view("executions-one");
    const version = page.locator('[data-testid="provenance"] [data-testid="definition-version"]');
    await version.waitFor(WAIT);
    expect(await version.innerText()).toBe("version 1");
    await version.click();
    await view("benchmarks-one");
    expect(errors).toEqual([]);
  });

  it("lists the provider configurations with their source; an admin's form writes one and never shows its password again", async () => {
    const password = "pw-the-page-never-shows-4821";
    await page.goto(`${url}/ui/#/providers`);
    await view("providers");
    expect(await page.innerText('[data-testid="provider-row"][data-name="local"] [data-testid="provider-source"]')).toBe("file");
    await page.fill('[data-testid="provider-name"]', "lab-form");
    await page.selectOption('[data-testid="provider-class"]', "existing-vm");
    await page.fill('[data-testid="provider-host"]', "192.0.2.1");
    await page.fill('[data-testid="provider-user"]', "nobody");
    await page.fill('[data-testid="provider-password"]', password);
    await page.click('[data-testid="write-provider"]');
    const written = page.locator('[data-testid="provider-written"]');
    await written.waitFor(WAIT);
    expect(await written.innerText()).toMatch(/^lab-form written, version 1; secrets set: .*password/);
    await page.waitForSelector('[data-testid="provider-row"][data-name="lab-form"]', WAIT);
    expect(await page.innerText('[data-testid="provider-row"][data-name="lab-form"] [data-testid="provider-source"]')).toBe("API");
    expect(await page.inputValue('[data-testid="provider-password"]')).toBe("");
    expect(await page.content()).not.toContain(password);
    await bw.deleteProvider("lab-form");
    expect(errors).toEqual([]);
  });
});
