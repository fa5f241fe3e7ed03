import { loadCatalog } from "@benchwright/catalog";
import type { PlanCreate } from "@benchwright/contract";
import { describe, expect, it } from "vitest";
import { toConfigFile } from "../config/provider-config.js";
import { BenchwrightError } from "../errors.js";
import { checkPlan, MAX_PLAN_EXECUTIONS } from "./check-plan.js";

const catalog = loadCatalog({});
const configs = [
  toConfigFile("local", { provider: { class: "local" }, default: {} }),
  toConfigFile("two", { provider: { class: "local" }, small: {}, large: {} }),
];
const limits = { providerConfigs: () => configs, maxStepTimeoutS: 3600 };
const KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAAAAAB\n-----END OPENSSH PRIVATE KEY-----\n";

// The generated type of an inline configuration cannot tell its provider section from a service type's.
const lab = { provider: { class: "existing-vm", name: "lab" }, vms: { host: "192.0.2.10", vm_user: "u", ssh_private_key: KEY } } as unknown as NonNullable<
  PlanCreate["targets"][number]["config"]
>;

const plan = (over: Partial<PlanCreate> = {}): PlanCreate => ({
  targets: [{ label: "here", provider: "local", service: "default" }],
  benchmarks: [{ tool: "sysbench", workload: "threads", params: { threads: [1, 4], duration: 10 } }],
  ...over,
});

/** The refusal of a plan: its code and every problem's path and message. */
function refusal(body: PlanCreate): { code: string; errors: Array<{ path: string; message: string }> } {
  try {
    checkPlan(body, catalog, limits);
  } catch (e) {
    if (!(e instanceof BenchwrightError)) throw e;
    return { code: e.code, errors: e.extras.errors ?? [] };
  }
  throw new Error("the plan was taken");
}

describe("checkPlan", () => {
  it("expands service '*' into each service type, counts cells and executions, fills in the defaults", () => {
    const { plan: checked, inline } = checkPlan(
      plan({
        targets: [
          { label: "both", provider: "two", service: "*" },
          { label: "here", provider: "local" },
          { label: "lab", config: lab },
        ],
        benchmarks: [
          { tool: "sysbench", workload: "threads", params: { threads: [1, 4, 16], duration: [10, 20] } },
          { tool: "sysbench", workload: "threads", params: { threads: [1, 4], duration: [10, 20] }, zip: true },
          { tool: "testing", workload: "idle5" },
        ],
        baseline: "here",
      }),
      catalog,
      limits,
    );
    expect(checked.targets).toEqual([
      { label: "both/small", provider: "two", service: "small", class: "local", inline: false },
      { label: "both/large", provider: "two", service: "large", class: "local", inline: false },
      { label: "here", provider: "local", service: "default", class: "local", inline: false },
      { label: "lab", provider: "lab", service: "vms", class: "existing-vm", inline: true },
    ]);
    expect(checked.benchmarks.map((b) => [b.tool, b.cells])).toEqual([
      ["sysbench", 6],
      ["sysbench", 2],
      ["idle", 1],
    ]);
    expect(checked).toMatchObject({
      cells: 9,
      executions: 36,
      baseline: "here",
      concurrency: { per_target: 1, overall: 4 },
      retries: 0,
      on_failure: "continue",
      keep_sessions: false,
    });
    expect(Object.keys(inline)).toEqual(["lab"]);
    expect(JSON.stringify(checked)).not.toContain("PRIVATE KEY");
  });

  it("takes the first target as the baseline, and a '*' label standing for one target as that target", () => {
    expect(checkPlan(plan(), catalog, limits).plan.baseline).toBe("here");
    const one = plan({ targets: [{ label: "l", provider: "local", service: "*" }], baseline: "l" });
    expect(checkPlan(one, catalog, limits).plan.baseline).toBe("l/default");
  });

  it("checks a schedule with the rest: its first tick, or its problems in the one 400", () => {
    const now = new Date("2026-01-01T10:00:30Z");
    expect(checkPlan(plan({ schedule: { cron: "0 * * * *", timezone: "Europe/Paris" } }), catalog, limits, now)).toMatchObject({
      schedule: { cron: "0 * * * *", timezone: "Europe/Paris", missed: "skip" },
      next: new Date("2026-01-01T11:00:00Z"),
    });
    expect(checkPlan(plan(), catalog, limits, now)).toMatchObject({ schedule: null, next: null });
    expect(refusal(plan({ benchmarks: [{ tool: "sysbenc", workload: "threads" }], schedule: { cron: "0 25 * * *" } }))).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/benchmarks/0/tool" }, { path: "/body/schedule/cron" }],
    });
  });

  it("answers each kind of problem with its own code and path", () => {
    expect(refusal(plan({ targets: [{ label: "x", provider: "nowhere" }] }))).toMatchObject({
      code: "unknown_provider",
      errors: [{ path: "/body/targets/0/provider" }],
    });
    expect(refusal(plan({ targets: [{ label: "x", provider: "two", service: "huge" }] }))).toMatchObject({
      code: "unknown_service_type",
      errors: [{ path: "/body/targets/0/service" }],
    });
    expect(refusal(plan({ benchmarks: [{ tool: "sysbenc", workload: "threads" }] }))).toEqual({
      code: "unknown_tool",
      errors: [{ path: "/body/benchmarks/0/tool", message: "No tool 'sysbenc'" }],
    });
    expect(refusal(plan({ benchmarks: [{ tool: "sysbench", workload: "nope" }] }))).toEqual({
      code: "unknown_workload",
      errors: [{ path: "/body/benchmarks/0/workload", message: "Tool 'sysbench' has no workload 'nope'" }],
    });
    expect(refusal(plan({ benchmarks: [{ tool: "sysbench", workload: "threads", params: { speed: [1, 2] } }] }))).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "/body/benchmarks/0/params/speed", message: expect.stringContaining("is not a parameter of this workload") }],
    });
    expect(refusal(plan({ benchmarks: [{ tool: "sysbench", workload: "threads", params: { threads: [4, 2000, 0] } }] }))).toEqual({
      code: "validation_failed",
      errors: [
        { path: "/body/benchmarks/0/params/threads/1", message: "must be at most 1024" },
        { path: "/body/benchmarks/0/params/threads/2", message: "must be at least 1" },
      ],
    });
    expect(refusal(plan({ benchmarks: [{ tool: "sysbench", workload: "threads", params: { threads: [] } }] })).errors).toEqual([
      { path: "/body/benchmarks/0/params/threads", message: "is an empty list: the matrix has no cell" },
    ]);
    expect(refusal(plan({ benchmarks: [{ tool: "sysbench", workload: "threads", params: { threads: [1, 2], duration: [5] }, zip: true }] })).errors).toEqual([
      { path: "/body/benchmarks/0/zip", message: "pairs lists of unequal lengths (threads: 2, duration: 1): give them one length, or cross them" },
    ]);
    expect(refusal(plan({ baseline: "there" })).errors).toEqual([{ path: "/body/baseline", message: "names no target (here)" }]);
    expect(
      refusal(
        plan({
          targets: [
            { label: "a", provider: "local" },
            { label: "a", provider: "local" },
          ],
        }),
      ).errors,
    ).toEqual([{ path: "/body/targets/1/label", message: "is 'a', the label of a target before it: labels are unique" }]);
    expect(refusal(plan({ targets: [{ label: "a" }] })).errors).toEqual([
      { path: "/body/targets/0", message: "give provider (a stored configuration) or config (an inline one), one of them" },
    ]);
    expect(refusal(plan({ repetitions: { count: 3, until_cv: 0.1 } })).errors.map((e) => e.path)).toEqual(["/body/repetitions/until_cv"]);
  });

  it("takes machines and runs per target, or a precision with its budget, and refuses what cannot mean one thing", () => {
    const twoLevels = checkPlan(plan({ targets: [{ label: "lab", config: lab }], machines: 3, runs: 5 }), catalog, limits).plan;
    expect(twoLevels).toMatchObject({ machines: 3, runs: 5 });
    const precise = checkPlan(
      plan({ targets: [{ label: "lab", config: lab }], precision: { relative_half_width: 0.02 }, budget: { wall_seconds: 600 } }),
      catalog,
      limits,
    ).plan;
    expect(precise).toMatchObject({ precision: { relative_half_width: 0.02 }, budget: { wall_seconds: 600 } });
    const refused = refusal(plan({ machines: 3, runs: 2, repetitions: { count: 2 }, budget: { money: 1 } }));
    expect(refused.errors.map((e) => e.path).sort()).toEqual(["/body/budget", "/body/runs", "/body/targets/0"]);
    expect(refused.errors.find((e) => e.path === "/body/targets/0")?.message).toContain("here is local, which is one machine");
    const mixed = refusal(plan({ targets: [{ label: "lab", config: lab }], precision: { relative_half_width: 0.02 }, machines: 2 }));
    expect(mixed.errors).toEqual([{ path: "/body/machines", message: expect.stringContaining("goes without precision") }]);
  });

  it("refuses more than 10,000 executions: targets × cells", () => {
    const threads = Array.from({ length: 1000 }, (_, i) => i + 1);
    const body = plan({ benchmarks: [{ tool: "sysbench", workload: "threads", params: { threads, duration: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } }] });
    expect(refusal(body)).toEqual({
      code: "validation_failed",
      errors: [{ path: "/body", message: `makes 11000 executions (1 targets × 11000 cells): at most ${MAX_PLAN_EXECUTIONS}` }],
    });
  });

  it("lists every problem in one refusal, validation_failed for a mix of kinds", () => {
    const body = plan({
      targets: [{ label: "x", provider: "nowhere" }],
      benchmarks: [
        { tool: "sysbenc", workload: "threads" },
        { tool: "sysbench", workload: "threads", params: { threads: [] } },
      ],
      baseline: "y",
    });
    const { code, errors } = refusal(body);
    expect(code).toBe("validation_failed");
    expect(errors.map((e) => e.path)).toEqual(["/body/targets/0/provider", "/body/benchmarks/0/tool", "/body/benchmarks/1/params/threads", "/body/baseline"]);
  });

  it("says a label is duplicated, also when a '*' target's expansion makes it, and the baseline that names it is then no further problem", () => {
    expect(
      refusal(
        plan({
          targets: [
            { label: "two/small", provider: "local", service: "default" },
            { label: "two", provider: "two", service: "*" },
          ],
          baseline: "two/small",
        }),
      ).errors,
    ).toEqual([{ path: "/body/targets/1/label", message: "makes 'two/small', the label of a target before it: labels are unique" }]);
    expect(
      refusal(
        plan({
          targets: [
            { label: "a", provider: "nowhere" },
            { label: "a", provider: "local", service: "default" },
          ],
          baseline: "a",
        }),
      ).errors.map((e) => e.message),
    ).toEqual(["No provider configuration 'nowhere' on this server", "is 'a', the label of a target before it: labels are unique"]);
    // No usable target at all: the baseline's problem says so, not "names no target ()".
    expect(refusal(plan({ targets: [{ label: "a", provider: "nowhere" }], baseline: "b" })).errors.map((e) => e.message)).toEqual([
      "No provider configuration 'nowhere' on this server",
      "names no target that can be used",
    ]);
  });
});
