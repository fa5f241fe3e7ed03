import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

// Workload parameters through the REST API, on the local provider: declared in
// /benchmarks/{id}, checked at creation, recorded on the execution, and handed to the scripts.
describe("workload parameters", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sessionId: string;
  let scratch: string;

  beforeAll(async () => {
    fx = await openFixture();
    scratch = mkdtempSync(join(tmpdir(), "bw-params-"));
    dropDefinition(fx.configDir, {
      id: "echoer",
      workload: "say",
      params: {
        text: { type: "string", default: "hello", description: "What to print" },
        mode: { type: "string", default: "plain", enum: ["plain", "loud"] },
        loud: { type: "boolean", default: false },
      },
      run: ['printf \'said: %s|%s|%s\\n\' "$BW_PARAM_TEXT" "$BW_PARAM_MODE" "$BW_PARAM_LOUD"', "echo 'BW_METRIC said 1 lines'"].join("\n"),
    });
    // A stored configuration may allow installing on the server's own host (an inline one may not):
    // sysbench comes from the distribution's packages where it is missing.
    writeFileSync(join(fx.configDir, "providers", "local-install.yaml"), "provider:\n  class: local\n  name: local-install\ndefault:\n  allow_install: true\n");
    api = request(fx.app);
    sessionId = (await api.post("/api/v1/sessions/").send({ provider: "local-install", service: "default" }).expect(200)).body.id;
  });
  afterAll(async () => {
    await fx?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const create = (body: object) => api.post(`/api/v1/sessions/${sessionId}/executions/`).send(body);
  async function run(body: object) {
    const created = await create(body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id as string;
    for (const step of ["prepare", "run"]) {
      const res = await api.post(`/api/v1/executions/${id}/${step}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    return (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
  }

  it("are listed with each workload of a benchmark", async () => {
    const sysbench = (await api.get("/api/v1/benchmarks/sysbench").expect(200)).body;
    const threads = sysbench.workloads.find((w: { id: string }) => w.id === "threads");
    expect(threads.params).toEqual([
      { name: "duration", type: "integer", default: 2, min: 1, max: 500, unit: "s", description: "How long sysbench runs" },
      { name: "threads", type: "integer", default: 4, min: 1, max: 1024, description: "Threads sysbench runs" },
    ]);
    const idle = (await api.get("/api/v1/benchmarks/idle").set("X-Fields", "workloads{id,params{name,default}}").expect(200)).body;
    expect(idle.workloads).toContainEqual({ id: "idle0", params: [] });
    expect(idle.workloads).toContainEqual({ id: "idle5", params: [{ name: "seconds", default: 5 }] });
  });

  it("leave the seed's {tool, workload} payload complete: the record shows the defaults", async () => {
    const idle5 = (await create({ tool: "idle", workload: "idle5" }).expect(200)).body;
    expect(idle5.params).toEqual({ seconds: 5 });
    expect((await api.get(`/api/v1/executions/${idle5.id}`).expect(200)).body.params).toEqual({ seconds: 5 });
    const idle0 = (await create({ tool: "idle", workload: "idle0" }).expect(200)).body;
    expect(idle0).toMatchObject({ state: "created", params: {}, metrics: [], steps: [] });
    const listed = (await api.get(`/api/v1/sessions/${sessionId}/executions/`).expect(200)).body;
    expect(listed.find((e: { id: string }) => e.id === idle0.id).params).toEqual({});
  });

  const bad: Array<[string, object, Array<{ path: string; message: string | RegExp }>]> = [
    [
      "an unknown name",
      { tool: "sysbench", workload: "threads", params: { thread: 2 } },
      [{ path: "/body/params/thread", message: /is not a parameter of this workload \(it has: duration, threads\)/ }],
    ],
    ["a wrong type", { tool: "sysbench", workload: "threads", params: { threads: "8" } }, [{ path: "/body/params/threads", message: "must be an integer" }]],
    [
      "a fraction for an integer",
      { tool: "sysbench", workload: "threads", params: { threads: 2.5 } },
      [{ path: "/body/params/threads", message: "must be an integer" }],
    ],
    [
      "a value above its bound",
      { tool: "sysbench", workload: "threads", params: { threads: 4096 } },
      [{ path: "/body/params/threads", message: "must be at most 1024" }],
    ],
    [
      "a value below its bound",
      { tool: "idle", workload: "idle5", params: { seconds: -1 } },
      [{ path: "/body/params/seconds", message: "must be at least 0" }],
    ],
    [
      "a value not in the enum",
      { tool: "echoer", workload: "say", params: { mode: "quiet" } },
      [{ path: "/body/params/mode", message: "must be one of: plain, loud" }],
    ],
    [
      "a thread list that is not one",
      { tool: "sysbench", workload: "cpu_10000", params: { threads: "1;reboot" } },
      [{ path: "/body/params/threads", message: /^must match / }],
    ],
    [
      "several problems at once",
      { tool: "sysbench", workload: "threads", params: { threads: 0, duration: true, "a/b": 1 } },
      [
        { path: "/body/params/threads", message: "must be at least 1" },
        { path: "/body/params/duration", message: "must be an integer" },
        { path: "/body/params/a~1b", message: /is not a parameter/ },
      ],
    ],
  ];
  it.each(bad.map(([name, body, errors]) => ({ name, body, errors })))(
    "refuse $name with a 400 that lists the parameters, changing nothing",
    async ({ body, errors }) => {
      const before = await storeSnapshot(fx.engine);
      const res = await create(body).expect(400);
      expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({
        status: 400,
        code: "validation_failed",
        errors: errors.map((e) => ({
          path: e.path,
          message: typeof e.message === "string" ? e.message : expect.stringMatching(e.message),
        })),
      });
      const workload = (await api.get(`/api/v1/benchmarks/${(body as { tool: string }).tool}`).expect(200)).body.workloads.find(
        (w: { id: string }) => w.id === (body as { workload: string }).workload,
      );
      expect(res.body.parameters).toEqual(workload.params);
      expect(res.body.parameters.length).toBeGreaterThan(0);
      expect(await storeSnapshot(fx.engine)).toBe(before);
    },
  );

  it("refuse any parameter for a workload that has none, and values that are no parameter value at all", async () => {
    const before = await storeSnapshot(fx.engine);
    const none = await create({ tool: "idle", workload: "idle0", params: { seconds: 1 } }).expect(400);
    expect(none.body).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/params/seconds", message: "is not a parameter: this workload has none" }],
      parameters: [],
    });
    // The contract's own check: a list or null is not a value of any parameter.
    for (const value of [[1], null, { n: 1 }]) {
      const res = await create({ tool: "idle", workload: "idle5", params: { seconds: value } }).expect(400);
      expect(res.body).toMatchObject({ code: "validation_failed" });
    }
    await create({ tool: "idle", workload: "idle5", params: [] }).expect(400);
    expect(await storeSnapshot(fx.engine)).toBe(before);
  });

  it("reach the script: idle5 sleeps the seconds given, and the record shows them", async () => {
    const exec = await run({ tool: "idle", workload: "idle5", params: { seconds: 0.3 } });
    expect(exec).toMatchObject({ state: "completed", params: { seconds: 0.3 } });
    const slept = exec.metrics.find((m: { name: string }) => m.name === "idle_seconds").value;
    expect(slept).toBeGreaterThanOrEqual(0.3);
    expect(slept).toBeLessThan(3);
    expect(Number(exec.steps.find((s: { step: string }) => s.step === "run").duration)).toBeLessThan(5);
  });

  it("reach the script as data: shell metacharacters in a string arrive literally and run nothing", async () => {
    const marker = join(scratch, "ran");
    const text = `$(touch ${marker}); \`touch ${marker}2\` '"; touch ${marker}3 #\\n`;
    const exec = await run({ tool: "echoer", workload: "say", params: { text, loud: true } });
    expect(exec.params).toEqual({ text, mode: "plain", loud: true });
    const log = (await api.get(`/api/v1/executions/${exec.id}/logs?step=run`).expect(200)).text;
    expect(log).toContain(`said: ${text}|plain|true\n`);
    for (const suffix of ["", "2", "3"]) expect(existsSync(marker + suffix)).toBe(false);
  });

  it("set sysbench's thread count: the figures are tagged with the count used", async () => {
    const one = await run({ tool: "sysbench", workload: "threads", params: { threads: 1, duration: 1 } });
    const byDefault = await run({ tool: "sysbench", workload: "threads", params: { duration: 1 } });
    expect(one.params).toEqual({ threads: 1, duration: 1 });
    expect(byDefault.params).toEqual({ threads: 4, duration: 1 });
    const threadTags = (exec: { metrics: Array<{ name: string; tags?: { threads?: string } }> }) => [
      ...new Set(exec.metrics.filter((m) => m.name === "events_per_second").map((m) => m.tags?.threads)),
    ];
    expect(threadTags(one)).toEqual(["1"]);
    expect(threadTags(byDefault)).toEqual(["4"]);
    // The run lasted about the second asked for, not the default's two.
    expect(one.metrics.find((m: { name: string }) => m.name === "total_time").value).toBeLessThan(1.9);
  }, 900_000);
});
