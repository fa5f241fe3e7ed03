import { parse } from "csv-parse/sync";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { runPlan } from "../test-support/plan-run.js";

const OTHER = "3c8f5d2b-0e4a-4f9c-b7d6-1a2b3c4d5e6f";

// The report's route on a real engine and a real run of a plan (two local targets, an idle
// workload three times each), its answers checked against the contract (the fixture validates
// responses).
describe("a plan run's report over HTTP", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let planId: string;
  let runId: string;

  beforeAll(async () => {
    fx = await openFixture();
    api = request(fx.app);
    const targets = [
      { label: "here", provider: "local", service: "default" },
      { label: "there", provider: "local", service: "default" },
    ];
    const plan = await api
      .post("/api/v1/plans/")
      // A margin of 50%: two idle sleeps of 0.1 s on one machine are equivalent, or at least not worse (the report's claims).
      .send({ targets, benchmarks: [{ tool: "idle", workload: "idle5", params: { seconds: 0.1 } }], repetitions: { count: 3 }, margin: 0.5 });
    expect(plan.status, plan.text).toBe(201);
    planId = plan.body.id;
    const run = await runPlan(api, planId);
    expect(run.state).toBe("completed");
    runId = run.id;
  }, 120_000);
  afterAll(() => fx?.close());

  const path = () => `/api/v1/plans/${planId}/runs/${runId}/report`;

  it("answers JSON by default: the two targets' figures and their ranking", async () => {
    const res = await api.get(path()).expect(200);
    expect(res.type).toBe("application/json");
    expect(res.body).toMatchObject({ plan_id: planId, run_id: runId, baseline: "here", failures: [] });
    const idle = res.body.cells[0].metrics[0];
    expect(idle.name).toBe("idle_seconds");
    expect(idle.figures.map((f: { target: string; n: number }) => [f.target, f.n])).toEqual([
      ["here", 3],
      ["there", 3],
    ]);
    expect(res.body.targets.map((t: { target: string }) => t.target).sort()).toEqual(["here", "there"]);
  });

  it("answers CSV and JSON Lines as files, one line per target and metric", async () => {
    const csv = await api.get(`${path()}?format=csv`).expect(200);
    expect(csv.type).toBe("text/csv");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="report.csv"');
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.target, r.metric, r.n])).toEqual([
      ["here", "idle_seconds", "3"],
      ["there", "idle_seconds", "3"],
    ]);
    const jsonl = await api.get(`${path()}?format=jsonl`).expect(200);
    expect(jsonl.type).toBe("application/x-ndjson");
    const lines = jsonl.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.target, l.verdict])).toEqual(rows.map((r) => [r.target, r.verdict]));
  });

  it("answers one HTML page, shown rather than saved, its charts inline", async () => {
    const res = await api.get(`${path()}?format=html`).expect(200);
    expect(res.type).toBe("text/html");
    expect(res.headers["content-disposition"]).toBeUndefined();
    expect(res.text).toContain('<th scope="row">there</th>');
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text.match(/<svg/g)).toHaveLength(2);
  });

  it("claims with the plan's margin, each figure with its variability; compare takes a margin too", async () => {
    const { body } = await api.get(path()).expect(200);
    expect(body).toMatchObject({ margin: 0.5, multiplicity: "holm" });
    const [here, there] = body.cells[0].metrics[0].figures;
    expect(here.claim).toBeUndefined();
    // Sleeps of 0.1 s are alike within the 50% margin, unless a loaded machine stretched some of
    // them (seen in CI): then the claim says it cannot be told yet, with the same margin.
    expect(["equivalent", "not_worse", "not_better", "inconclusive"]).toContain(there.claim.verdict);
    expect(there.claim.sentence).toMatch(
      there.claim.verdict === "inconclusive"
        ? /^Whether there differs from here on idle_seconds by more than .* cannot be told yet: .*3 runs on one machine each\)\./
        : /^there is .* here on idle_seconds\b.*3 runs on one machine each\)\.$/,
    );
    expect(there.variability).toMatchObject({ machines: 1, runs: 3, interval_from: "runs", between_cv: null });
    const csv = parse((await api.get(`${path()}?format=csv`).expect(200)).text, { columns: true }) as Array<Record<string, string>>;
    expect(csv[1]).toMatchObject({ machines: "1", claim: there.claim.verdict });
    const ids = [here.execution_id, there.execution_id].join(",");
    const compared = (await api.get("/api/v1/executions/compare").query({ ids, margin: 0.5 }).expect(200)).body;
    expect(compared.metrics[0].figures[1].claim.verdict).toBe(there.claim.verdict);
    const bad = await api.get("/api/v1/executions/compare").query({ ids, margin: 2 }).expect(400);
    expect(bad.body.errors[0].path).toBe("/query/margin");
  });

  it("is a 400 for an unknown format, and a 404 for an unknown plan or run", async () => {
    const bad = await api.get(`${path()}?format=xml`).expect(400);
    expect(bad.body.code).toBe("validation_failed");
    expect(bad.body.errors[0].path).toBe("/query/format");
    const noPlan = await api.get(`/api/v1/plans/${OTHER}/runs/${runId}/report`).expect(404);
    expect(noPlan.body.code).toBe("not_found");
    const noRun = await api.get(`/api/v1/plans/${planId}/runs/${OTHER}/report`).expect(404);
    expect(noRun.body.detail).toBe(`No run ${OTHER} of plan ${planId}`);
  });
});
