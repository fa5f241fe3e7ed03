import { describe, expect, it } from "vitest";
import { checkDefinition, pointerOf } from "./check-definition.js";

const good = () => ({
  id: "team-echo",
  tool_name: "Echo",
  parser: "keyvalue",
  metrics: { "ops.sec": { unit: "1/s", better: "higher" } },
  workloads: [{ id: "one", scripts: { run: "bw_metric ops.sec 1 1/s" } }],
});

describe("checkDefinition", () => {
  it("gives the definition of a good document", () => {
    const r = checkDefinition(good(), "api");
    expect(r.problems).toEqual([]);
    expect(r.definition?.id).toBe("team-echo");
  });

  it("lists every problem at its JSON Pointer: bash -n, unknown parser, metric without unit, duplicate workload", () => {
    const doc = { ...good(), parser: "nope", metrics: { "ops.sec": { better: "higher" } } };
    doc.workloads.push({ id: "one", scripts: { run: "if then fi (" } });
    const { problems } = checkDefinition(doc, "api");
    const pointers = problems.map((p) => p.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/parser", "/metrics/ops.sec/unit", "/workloads/1/id", "/workloads/1/scripts/run"]));
    expect(problems.find((p) => p.pointer === "/workloads/1/scripts/run")?.message).toMatch(/bash -n/);
  });

  it("points into keys with dots and escapes / and ~", () => {
    expect(pointerOf({ metrics: { "a.b": {} } }, "metrics.a.b.unit")).toBe("/metrics/a.b/unit");
    expect(pointerOf({ workloads: [{ scripts: {} }] }, "workloads[0].scripts.run@x")).toBe("/workloads/0/scripts/run@x");
    expect(pointerOf({}, "")).toBe("");
    expect(pointerOf({ "a/b~": 1 }, "a/b~")).toBe("/a~1b~0");
  });
});
