import { describe, expect, it } from "vitest";
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
});
