import { describe, expect, it } from "vitest";
import { sideToolVersion, toolVersionsDiffer, type VersionedRow } from "./tool-versions.js";

function side(id: string, versions: string[], tool = "sysbench"): VersionedRow {
  return {
    id,
    tool_id: tool,
    workload_id: "cpu_10000",
    exec_env: { vms: [] },
    provenance: {
      tool,
      workload: "cpu_10000",
      packages: versions.map((v, i) => ({ machine: `m${i}`, name: tool, version: v })),
      definition_digest: `sha256:${"0".repeat(64)}`,
      params: {},
      scripts: [],
      benchwright_version: "0.1.0",
    },
  };
}

describe("a side's tool version", () => {
  it("is its packages, machine by machine, where they differ", () => {
    expect(sideToolVersion(side("a", ["1.0.20+ds-5"]))).toBe("sysbench 1.0.20+ds-5");
    expect(sideToolVersion(side("a", ["1.0.20+ds-5", "1.0.20+ds-5"]))).toBe("sysbench 1.0.20+ds-5");
    expect(sideToolVersion(side("a", ["1.0.20+ds-5", "1.0.20+ds-1"]))).toBe("sysbench 1.0.20+ds-5; sysbench 1.0.20+ds-1");
  });

  it("is its machines' tool_version facts for a run from before provenance, and undefined where none was recorded", () => {
    const old: VersionedRow = {
      id: "o",
      tool_id: "sysbench",
      workload_id: "cpu_10000",
      exec_env: { vms: [{ id: "m", facts: { tool_version: "sysbench 1.0.18" } }] },
    };
    expect(sideToolVersion(old)).toBe("sysbench 1.0.18");
    expect(sideToolVersion({ ...old, exec_env: { vms: [{ id: "m", facts: {} }] } })).toBeUndefined();
    expect(sideToolVersion(side("a", []))).toBeUndefined();
  });
});

describe("the sides whose tool versions differ", () => {
  it("are every side of a tool recorded at more than one version, in order, with its version", () => {
    const rows = [side("a", ["1.0.20+ds-5"]), side("b", ["1.0.20+ds-5"]), side("c", ["1.0.20+ds-1"])];
    expect(toolVersionsDiffer(rows)).toEqual([
      { execution_id: "a", tool: "sysbench", workload: "cpu_10000", version: "sysbench 1.0.20+ds-5" },
      { execution_id: "b", tool: "sysbench", workload: "cpu_10000", version: "sysbench 1.0.20+ds-5" },
      { execution_id: "c", tool: "sysbench", workload: "cpu_10000", version: "sysbench 1.0.20+ds-1" },
    ]);
  });

  it("are none when the versions agree, when a side has none, or across different tools", () => {
    expect(toolVersionsDiffer([side("a", ["1.0.20+ds-5"]), side("b", ["1.0.20+ds-5"])])).toEqual([]);
    expect(toolVersionsDiffer([side("a", ["1.0.20+ds-5"]), side("b", [])])).toEqual([]);
    expect(toolVersionsDiffer([side("a", ["1.0.20+ds-5"]), side("f", ["3.33-3"], "fio")])).toEqual([]);
  });
});
