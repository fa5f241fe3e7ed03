import { loadSpec } from "@benchwright/contract";
import type { RunningPrism } from "@benchwright/contract/prism";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../process/server.js";
import { startProxiedServer, type ProxiedServer } from "../test-support/proxied-server.js";
import { queryDatabase } from "@benchwright/engine/test-access";

type Operation = { operationId: string; parameters?: Array<{ $ref?: string }> };

/** Every operation of the contract that takes an X-Fields mask, by operationId. */
function maskedOperations(): string[] {
  const spec = loadSpec() as { paths: Record<string, Record<string, Operation>> };
  return Object.values(spec.paths)
    .flatMap((item) =>
      Object.entries(item)
        .filter(([m]) => m !== "parameters")
        .map(([, op]) => op),
    )
    .filter((op) => op.parameters?.some((p) => p.$ref === "#/components/parameters/XFields"))
    .map((op) => op.operationId)
    .sort();
}

// Masks a client may send: a plain field, several, nested, `*`, braces around, a field the
// record does not have. Each operation gets these and masks on its own record's fields.
const COMMON_MASKS = ["id", "*", "{id}", "no_such_field", "id,no_such_field{x}"];

// The real server behind `prism proxy --errors`: a masked answer (without the fields the
// contract marks required) must be no violation, on every operation that takes X-Fields.
describe("masked answers, checked by Prism against the contract", () => {
  let proxied: ProxiedServer;
  let server: RunningServer;
  let prism: RunningPrism;

  beforeAll(async () => {
    proxied = await startProxiedServer();
    ({ server, prism } = proxied);
  }, 60_000);
  afterAll(() => proxied?.close());

  it("finds no violation with any mask on any operation that takes X-Fields", async () => {
    const seen = new Set<string>();
    const failures: string[] = [];
    const call = async (operationId: string, method: string, path: string, mask: string | undefined, body?: unknown, headers: Record<string, string> = {}) => {
      seen.add(operationId);
      const res = await fetch(`${prism.url}/api/v1${path}`, {
        method,
        headers: {
          ...(mask === undefined ? {} : { "X-Fields": mask }),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) failures.push(`${operationId} with mask '${mask}': ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const each = async (_operationId: string, own: string[], send: (mask: string) => Promise<unknown>) => {
      for (const mask of [...COMMON_MASKS, ...own]) await send(mask);
    };

    // What the masked calls need: a session, and executions in every state a mask can meet.
    const session = await call("createSession", "POST", "/sessions/", undefined, { provider: "local", service: "default" });
    const ran = await call("createExecution", "POST", `/sessions/${session.id}/executions/`, undefined, {
      tool: "idle",
      workload: "idle0",
    });
    await call("prepareExecution", "POST", `/executions/${ran.id}/prepare`, undefined);
    await call("runExecution", "POST", `/executions/${ran.id}/run`, undefined);

    await each("listBenchmarks", ["id,workloads{id,categories}", "tool_name"], (m) => call("listBenchmarks", "GET", "/benchmarks/", m));
    await each("getBenchmark", ["workloads{workload_name}", "aliases"], (m) => call("getBenchmark", "GET", "/benchmarks/idle", m));
    // A team's definition written through the API: created by the first write, a new version by each other.
    const definition = { id: "masked-echo", tool_name: "Echo", parser: "keyvalue", workloads: [{ id: "one", scripts: { run: "true" } }] };
    await each("putBenchmark", ["id,version,digest", "source,read_only"], (m) => call("putBenchmark", "PUT", "/benchmarks/masked-echo", m, definition));
    await each("listBenchmarkVersions", ["version,digest", "definition{id}"], (m) =>
      call("listBenchmarkVersions", "GET", "/benchmarks/masked-echo/versions/", m),
    );
    await each("getBenchmarkVersion", ["version,deleted", "definition{workloads}"], (m) =>
      call("getBenchmarkVersion", "GET", "/benchmarks/masked-echo/versions/1", m),
    );
    await each("listProviders", ["name", "service_types,class"], (m) => call("listProviders", "GET", "/providers/", m));
    // A configuration written through the API: created by the first write, replaced (a new version) by the others.
    const providerMasks = ["name,version", "config{provider}", "secrets_set,read_only,source"];
    await each("putProvider", providerMasks, (m) => call("putProvider", "PUT", "/providers/masked", m, { provider: { class: "local" }, bench: {} }));
    await each("getProvider", providerMasks, (m) => call("getProvider", "GET", "/providers/masked", m));
    // A harness's output added to series (each call adds points), and a gate on the first.
    const ingestBody = { adapter: "generic", output: JSON.stringify([{ metric: "masked_ms", values: [1, 1.1, 0.9], unit: "ms", better: "lower" }]) };
    const ingest = await call("createIngest", "POST", "/ingests/", undefined, ingestBody);
    await each("createIngest", ["id,points", "branch,commit,created"], (m) => call("createIngest", "POST", "/ingests/", m, ingestBody));
    await each("createGate", ["outcome,worse", "cells,margin"], (m) => call("createGate", "POST", "/gates/", m, { ingest_id: ingest.id }));
    await each("getWhoami", ["role", "principal,bootstrap"], (m) => call("getWhoami", "GET", "/whoami", m));
    await each("createSession", ["provider{id}", "state,executions"], (m) =>
      call("createSession", "POST", "/sessions/", m, { provider: "local", service: "default" }),
    );
    const execMasks = ["state", "test{tool_id}", "metrics{name,value}", "steps{step,attempt}", "exec_env{vms{id}}", "id,state,created"];
    await each("listSessions", ["executions{id,state}", "provider{type,class}", ...execMasks.map((m) => `executions{${m}}`)], (m) =>
      call("listSessions", "GET", "/sessions/", m),
    );
    await each("getSession", ["id,created", "executions{id,metrics{name}}"], (m) => call("getSession", "GET", `/sessions/${session.id}`, m));
    await each("updateSession", ["owner,shared", "id,executions{id}"], (m) => call("updateSession", "PATCH", `/sessions/${session.id}`, m, { shared: false }));
    await each("createExecution", execMasks, (m) =>
      call("createExecution", "POST", `/sessions/${session.id}/executions/`, m, { tool: "idle", workload: "idle0" }),
    );
    await each("listSessionExecutions", execMasks, (m) => call("listSessionExecutions", "GET", `/sessions/${session.id}/executions/`, m));
    await each("listExecutions", execMasks, (m) => call("listExecutions", "GET", "/executions/", m));
    await each("getExecution", execMasks, (m) => call("getExecution", "GET", `/executions/${ran.id}`, m));
    const other = await call("createExecution", "POST", `/sessions/${session.id}/executions/`, undefined, {
      tool: "idle",
      workload: "idle0",
    });
    await call("prepareExecution", "POST", `/executions/${other.id}/prepare`, undefined);
    await call("runExecution", "POST", `/executions/${other.id}/run`, undefined);
    await each("compareExecutions", ["baseline,confidence", "metrics{name,figures{execution_id,mean,verdict}}", "executions{id,machines{facts}}"], (m) =>
      call("compareExecutions", "GET", `/executions/compare?ids=${ran.id},${other.id}`, m),
    );
    await each("getStepAttempt", ["state,metrics{name}", "execution_id,step,attempt", "error"], (m) =>
      call("getStepAttempt", "GET", `/executions/${ran.id}/steps/run/1`, m),
    );
    await each("getExecutionTelemetry", ["machines{machine_id,summary{name,value}}", "attempt,enabled", "machines{samples{at,cpu_steal}}"], (m) =>
      call("getExecutionTelemetry", "GET", `/executions/${ran.id}/telemetry`, m),
    );
    // A cancel answers the execution: a running step to stop for each mask.
    await each("cancelExecution", ["state", "steps{step,attempt,error}"], async (m) => {
      const e = await call("createExecution", "POST", `/sessions/${session.id}/executions/`, undefined, {
        tool: "idle",
        workload: "idle5",
        params: { seconds: 30 },
      });
      await call("prepareExecution", "POST", `/executions/${e.id}/prepare`, undefined);
      await call("runExecution", "POST", `/executions/${e.id}/run`, undefined, undefined, { Prefer: "respond-async" });
      return call("cancelExecution", "POST", `/executions/${e.id}/cancel`, m);
    });
    await each("sweepResources", ["resources{id}", "dry_run"], (m) => call("sweepResources", "POST", "/admin/sweep", m, { dry_run: true }));
    const planBody = { targets: [{ label: "here", provider: "local" }], benchmarks: [{ tool: "idle", workload: "idle0" }] };
    const plan = await call("createPlan", "POST", "/plans/", undefined, planBody);
    const planMasks = ["targets{label,inline}", "benchmarks{tool,cells}", "executions,cells", "concurrency{overall}"];
    await each("createPlan", planMasks, (m) => call("createPlan", "POST", "/plans/?dry_run=true", m, planBody));
    await each("listPlans", planMasks, (m) => call("listPlans", "GET", "/plans/", m));
    await each("getPlan", planMasks, (m) => call("getPlan", "GET", `/plans/${plan.id}`, m));
    const runMasks = ["state,progress{total,eta_seconds}", "cells{target,state,execution_id}", "sessions", "started,ended"];
    await each("startPlanRun", runMasks, (m) => call("startPlanRun", "POST", `/plans/${plan.id}/runs/`, m));
    await each("listPlanRuns", runMasks, (m) => call("listPlanRuns", "GET", `/plans/${plan.id}/runs/`, m));
    const planRun = await call("startPlanRun", "POST", `/plans/${plan.id}/runs/`, undefined);
    await each("getPlanRun", runMasks, (m) => call("getPlanRun", "GET", `/plans/${plan.id}/runs/${planRun.id}`, m));
    // The report of the run just started (no cell has ended yet: every figure empty), under every mask.
    await each("getPlanRunReport", ["targets{target,rank}", "cells{metrics{name}}"], (m) =>
      call("getPlanRunReport", "GET", `/plans/${plan.id}/runs/${planRun.id}/report`, m),
    );
    // A schedule, paused and resumed under each mask.
    const scheduled = await call("createPlan", "POST", "/plans/", undefined, { ...planBody, schedule: { cron: "0 3 * * *" } });
    const scheduleMasks = ["schedule{paused,next_run_at}", "id,schedule"];
    await each("pausePlanSchedule", scheduleMasks, (m) => call("pausePlanSchedule", "POST", `/plans/${scheduled.id}/pause`, m));
    await each("resumePlanSchedule", scheduleMasks, (m) => call("resumePlanSchedule", "POST", `/plans/${scheduled.id}/resume`, m));
    // The idle runs above made a series (idle_seconds of idle/idle0 on local/default).
    const [series] = await call("listSeries", "GET", "/series/?tool=idle&metric=idle_seconds", undefined);
    const seriesMasks = ["benchmark{tool},metric{name,better}", "latest{seq,facts}", "baseline,latest_vs_baseline", "target,points,open_changes"];
    await each("setSeriesBaseline", seriesMasks, (m) => call("setSeriesBaseline", "PUT", `/series/${series.id}/baseline`, m, { from: 1, to: 2 }));
    await each("listSeries", seriesMasks, (m) => call("listSeries", "GET", "/series/", m));
    await each("getSeries", seriesMasks, (m) => call("getSeries", "GET", `/series/${series.id}`, m));
    await each("listSeriesPoints", ["seq,mean", "facts{kernel}", "ci_low,ci_high,n"], (m) => call("listSeriesPoints", "GET", `/series/${series.id}/points`, m));
    // A change in it, written as the checker records one (idle runs do not change level).
    await queryDatabase(
      server.engine,
      `INSERT INTO series_changes (id, series_id, point_seq, at, execution_id, direction, size, size_ci_low, size_ci_high, p_value, before, after, facts_changed, detected)
       VALUES ('6c2d8e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f', $1, 2, now(), $2, 'regression', 0.1, 0.05, 0.15, 0.005, '{"mean": 0.001, "n": 1}', '{"mean": 0.0011, "n": 1}',
               '[{"fact": "kernel", "before": ["6.1.0"], "after": ["6.1.1"]}]', now())`,
      [series.id, ran.id],
    );
    const changeMasks = ["direction,size", "series{metric{name}}", "facts_changed{fact}", "state,detected_at"];
    await each("listSeriesChanges", changeMasks, (m) => call("listSeriesChanges", "GET", `/series/${series.id}/changes`, m));
    await each("listChanges", changeMasks, (m) => call("listChanges", "GET", "/changes/", m));
    await each("getChange", changeMasks, (m) => call("getChange", "GET", "/changes/6c2d8e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f", m));
    await each("acknowledgeChange", changeMasks, (m) => call("acknowledgeChange", "POST", "/changes/6c2d8e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f/acknowledge", m));
    // A webhook on a public address, never called: no event asks for it.
    const webhookMasks = ["url,events", "plan_id,format", "secret"];
    await each("createWebhook", webhookMasks, (m) => call("createWebhook", "POST", "/webhooks/", m, { url: "https://93.184.215.14/benchwright" }));
    const [hook] = await call("listWebhooks", "GET", "/webhooks/", undefined);
    await each("listWebhooks", webhookMasks, (m) => call("listWebhooks", "GET", "/webhooks/", m));
    await each("getWebhook", webhookMasks, (m) => call("getWebhook", "GET", `/webhooks/${hook.id}`, m));
    await each("listWebhookDeliveries", ["state,attempts", "event_key"], (m) => call("listWebhookDeliveries", "GET", `/webhooks/${hook.id}/deliveries`, m));
    // The audit log holds every write above (each request's entry is written when its answer has gone).
    const auditMasks = ["principal,operation", "status,code,outcome", "request_id,at"];
    await each("listAuditEntries", auditMasks, (m) => call("listAuditEntries", "GET", "/admin/audit?limit=5&outcome=success", m));
    // A token's record, and the token itself in its creation's answer only.
    const tokenMasks = ["principal,role", "expires,revoked", "token"];
    await each("createToken", tokenMasks, (m) => call("createToken", "POST", "/admin/tokens/", m, { principal: "masked", role: "viewer" }));
    const [token] = await call("listTokens", "GET", "/admin/tokens/", undefined);
    await each("listTokens", tokenMasks, (m) => call("listTokens", "GET", "/admin/tokens/", m));
    await each("getToken", tokenMasks, (m) => call("getToken", "GET", `/admin/tokens/${token.id}`, m));
    // The steps' answers: the result when the step has ended, the attempt (202) when asked to answer at once.
    for (const mask of [...COMMON_MASKS, "started", "duration"]) {
      const e = await call("createExecution", "POST", `/sessions/${session.id}/executions/`, undefined, {
        tool: "idle",
        workload: "idle0",
      });
      await call("prepareExecution", "POST", `/executions/${e.id}/prepare`, mask);
      await call("runExecution", "POST", `/executions/${e.id}/run`, mask);
    }
    for (const mask of ["state", "execution_id,attempt", "metrics{name}"]) {
      const e = await call("createExecution", "POST", `/sessions/${session.id}/executions/`, undefined, {
        tool: "idle",
        workload: "idle0",
      });
      await call("prepareExecution", "POST", `/executions/${e.id}/prepare`, mask, undefined, { Prefer: "respond-async" });
      await waitForStepEnd(`${server.url}/api/v1/executions/${e.id}/steps/prepare/1`);
    }

    expect(failures).toEqual([]);
    expect(prism.output()).not.toMatch(/violation/i);
    expect([...seen].sort()).toEqual(maskedOperations());
    // About 300 requests through Prism: 37 s alone on a quiet machine, over 120 s in CI beside
    // three other server files and the engine's tests.
  }, 400_000);

  it("cuts the answers down as asked, so the check above saw masked answers", async () => {
    const res = await fetch(`${prism.url}/api/v1/benchmarks/idle`, { headers: { "X-Fields": "workloads{id}" } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { workloads: Array<Record<string, unknown>> };
    expect(Object.keys(body)).toEqual(["workloads"]);
    for (const w of body.workloads) expect(Object.keys(w)).toEqual(["id"]);
    expect(prism.output()).not.toMatch(/violation/i);
  }, 30_000);
});

/** Polls the step's attempt on the server itself until it has ended (a wait, not a timing check). */
async function waitForStepEnd(url: string): Promise<void> {
  for (;;) {
    const attempt = (await (await fetch(url)).json()) as { state: string };
    if (attempt.state !== "running") return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
