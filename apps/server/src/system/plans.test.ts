import { writeFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { storeSnapshot } from "@benchwright/engine/test-access";

const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n";
const here = { label: "here", provider: "local", service: "default" };
const threads = { tool: "sysbench", workload: "threads", params: { threads: [1, 4] } };

// Issue 24, point 1 and acceptance 4: a bad plan is one 400 listing every problem, and the store is left as it was.
describe("plans", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  beforeAll(async () => {
    fx = await openFixture();
    // A stored configuration with two service types, for `service: "*"`, in YAML.
    writeFileSync(
      join(fx.configDir, "providers", "two.yaml"),
      "provider: { class: local }\nsmall: { allow_install: false }\nlarge: { allow_install: false }\n",
    );
    api = request(fx.app);
  });
  afterAll(() => fx?.close());

  const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
  it.each([
    ["an unknown provider", { targets: [{ label: "x", provider: "nowhere" }], benchmarks: [threads] }, "unknown_provider", ["/body/targets/0/provider"]],
    [
      "an unknown service",
      { targets: [{ label: "x", provider: "two", service: "medium" }], benchmarks: [threads] },
      "unknown_service_type",
      ["/body/targets/0/service"],
    ],
    ["an unknown tool", { targets: [here], benchmarks: [{ tool: "sysbenc", workload: "threads" }] }, "unknown_tool", ["/body/benchmarks/0/tool"]],
    ["an unknown workload", { targets: [here], benchmarks: [{ tool: "sysbench", workload: "nope" }] }, "unknown_workload", ["/body/benchmarks/0/workload"]],
    ["an unknown param", { targets: [here], benchmarks: [{ ...threads, params: { speed: 3 } }] }, "validation_failed", ["/body/benchmarks/0/params/speed"]],
    [
      "values out of bounds",
      { targets: [here], benchmarks: [{ ...threads, params: { threads: [1, 2000], duration: 0 } }] },
      "validation_failed",
      ["/body/benchmarks/0/params/threads/1", "/body/benchmarks/0/params/duration"],
    ],
    ["an empty matrix", { targets: [here], benchmarks: [{ ...threads, params: { threads: [] } }] }, "validation_failed", ["/body/benchmarks/0/params/threads"]],
    [
      "more than 10,000 executions",
      {
        targets: [here, { label: "both", provider: "two", service: "*" }],
        benchmarks: [{ ...threads, params: { threads: thousand, duration: [1, 2, 3, 4] } }],
      },
      "validation_failed",
      ["/body"],
    ],
    [
      "zip with unequal lengths",
      { targets: [here], benchmarks: [{ ...threads, params: { threads: [1, 2], duration: [1] }, zip: true }] },
      "validation_failed",
      ["/body/benchmarks/0/zip"],
    ],
    ["an unknown baseline", { targets: [here], benchmarks: [threads], baseline: "there" }, "validation_failed", ["/body/baseline"]],
    ["a label given twice", { targets: [here, here], benchmarks: [threads] }, "validation_failed", ["/body/targets/1/label"]],
    [
      "several problems at once",
      {
        targets: [{ label: "x", provider: "nowhere" }],
        benchmarks: [
          { tool: "sysbenc", workload: "threads" },
          { ...threads, params: { threads: [] } },
        ],
        baseline: "y",
      },
      "validation_failed",
      ["/body/targets/0/provider", "/body/benchmarks/0/tool", "/body/benchmarks/1/params/threads", "/body/baseline"],
    ],
    ["a label the contract refuses", { targets: [{ ...here, label: "a/b" }], benchmarks: [threads] }, "validation_failed", ["/body/targets/0/label"]],
    // Issue 34, point 3: ticks closer than the server's least interval (60 s by default).
    [
      "a schedule ticking every second",
      { targets: [here], benchmarks: [threads], schedule: { cron: "* * * * * *" } },
      "validation_failed",
      ["/body/schedule/cron"],
    ],
    [
      "an unknown overlap",
      { targets: [here], benchmarks: [threads], schedule: { cron: "@daily", overlap: "queue" } },
      "validation_failed",
      ["/body/schedule/overlap"],
    ],
  ])("answers %s with one 400 listing it, and stores nothing", async (_name, body, code, paths) => {
    const before = await storeSnapshot(fx.engine);
    const listed = (await api.get("/api/v1/plans/").expect(200)).body;
    const res = await api.post("/api/v1/plans/").send(body).expect(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe(code);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
    expect(await storeSnapshot(fx.engine)).toBe(before);
    expect((await api.get("/api/v1/plans/").expect(200)).body).toEqual(listed);
  });

  it("shows a schedule's overlap (skip by default) and its skipped ticks", async () => {
    const made = (
      await api
        .post("/api/v1/plans/")
        .send({ targets: [here], benchmarks: [threads], schedule: { cron: "0 3 * * *" } })
        .expect(201)
    ).body;
    expect(made.schedule).toMatchObject({ cron: "0 3 * * *", missed: "skip", overlap: "skip", skipped_ticks: 0, last_skipped_tick: null });
    const allowing = (
      await api
        .post("/api/v1/plans/")
        .send({ targets: [here], benchmarks: [threads], schedule: { cron: "0 3 * * *", overlap: "allow" } })
        .expect(201)
    ).body;
    expect((await api.get(`/api/v1/plans/${allowing.id}`).expect(200)).body.schedule).toMatchObject({ overlap: "allow", skipped_ticks: 0 });
    for (const id of [made.id, allowing.id]) await api.delete(`/api/v1/plans/${id}`).expect(204);
  });

  it("creates, lists, reads and deletes a plan, its '*' target expanded, its inline credentials never shown", async () => {
    const body = {
      targets: [
        { label: "both", provider: "two", service: "*" },
        { label: "lab", config: { provider: { class: "existing-vm", name: "lab" }, vms: { host: "192.0.2.10", vm_user: "ubuntu", ssh_private_key: KEY } } },
      ],
      benchmarks: [
        { tool: "sysbench", workload: "threads", params: { threads: [1, 4, 16], duration: [5, 10] } },
        { tool: "idle", workload: "idle5" },
      ],
      repetitions: { count: 3 },
      baseline: "lab",
    };
    const before = await storeSnapshot(fx.engine);
    const checked = (await api.post("/api/v1/plans/?dry_run=true").send(body).expect(200)).body;
    expect(checked).toMatchObject({ cells: 7, executions: 21 });
    expect(await storeSnapshot(fx.engine)).toBe(before);

    const created = await api.post("/api/v1/plans/").send(body).expect(201);
    const plan = created.body;
    expect(created.headers.location).toBe(`/api/v1/plans/${plan.id}`);
    expect(plan).toMatchObject({
      targets: [
        { label: "both/small", provider: "two", service: "small", class: "local", inline: false },
        { label: "both/large", provider: "two", service: "large", class: "local", inline: false },
        { label: "lab", provider: "lab", service: "vms", class: "existing-vm", inline: true },
      ],
      benchmarks: [{ cells: 6 }, { tool: "idle", cells: 1 }],
      cells: 7,
      executions: 21,
      baseline: "lab",
      repetitions: { count: 3 },
    });
    expect(JSON.stringify(plan)).not.toContain("PRIVATE KEY");
    expect(JSON.stringify(await storeSnapshot(fx.engine))).not.toContain("PRIVATE KEY");

    const second = (
      await api
        .post("/api/v1/plans/")
        .send({ targets: [here], benchmarks: [threads] })
        .expect(201)
    ).body;
    expect((await api.get("/api/v1/plans/").expect(200)).body.map((p: { id: string }) => p.id)).toEqual([plan.id, second.id]);
    const page = await api.get("/api/v1/plans/?limit=1").expect(200);
    expect(page.body.map((p: { id: string }) => p.id)).toEqual([plan.id]);
    const next = await api.get(`/api/v1/plans/?limit=1&cursor=${page.headers["x-next-cursor"]}`).expect(200);
    expect(next.body.map((p: { id: string }) => p.id)).toEqual([second.id]);
    expect((await api.get(`/api/v1/plans/${plan.id}`).expect(200)).body).toEqual(plan);

    await api.delete(`/api/v1/plans/${plan.id}`).expect(204);
    expect((await api.get(`/api/v1/plans/${plan.id}`).expect(404)).body.code).toBe("not_found");
    await api.delete(`/api/v1/plans/${plan.id}`).expect(404);
    expect((await api.get("/api/v1/plans/").expect(200)).body.map((p: { id: string }) => p.id)).toEqual([second.id]);
    expect((await api.get("/api/v1/plans/?cursor=WyJlIiwiNDIiXQ").expect(400)).body.code).toBe("validation_failed");
  });
});
