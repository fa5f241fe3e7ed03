import { describe, expect, it } from "vitest";
import { compareExecutions } from "./comparison.js";
import { paramsDiffer } from "./params-differ.js";

const row = (id: string, params: Record<string, unknown>, workload = "idle") => ({ id, tool_id: "idle", workload_id: workload, params });

describe("the sides whose params differ", () => {
  it("names every side of a workload run with other params than another side's", () => {
    expect(paramsDiffer([row("a", { seconds: 0 }), row("b", { seconds: 0.5 })])).toEqual([
      { execution_id: "a", tool: "idle", workload: "idle", params: { seconds: 0 } },
      { execution_id: "b", tool: "idle", workload: "idle", params: { seconds: 0.5 } },
    ]);
  });

  it("is empty when the params agree, whatever their order, and never sets two workloads against each other", () => {
    expect(paramsDiffer([row("a", { seconds: 1, x: 2 }), row("b", { x: 2, seconds: 1 })])).toEqual([]);
    expect(paramsDiffer([row("a", { seconds: 1 }, "idle"), row("b", {}, "idle5")])).toEqual([]);
  });

  it("is what a comparison answers as params_differ, beside tool_versions_differ", () => {
    const side = (id: string, seconds: number) => ({
      ...row(id, { seconds }),
      session_id: "s",
      provider: "local",
      service_type: "default",
      state: "completed",
      exec_env: { vms: [] },
      metrics: [],
    });
    const compared = compareExecutions([side("a", 0), side("b", 0.5)], "a", 0.95);
    expect(compared.params_differ.map((s) => [s.execution_id, s.params])).toEqual([
      ["a", { seconds: 0 }],
      ["b", { seconds: 0.5 }],
    ]);
    expect(compared.executions.map((e) => e.params)).toEqual([{ seconds: 0 }, { seconds: 0.5 }]);
  });
});
