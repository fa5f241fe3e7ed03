import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatalogSource } from "./catalog-source.js";

const definition = (id: string) => `id: ${id}
tool_name: ${id}
description: dropped in
parser: keyvalue
timeout: {prepare: 10, run: 10}
scripts: {}
workloads:
  - id: once
    workload_name: Once
    workload_description: Prints one metric
    categories: [test]
    scripts:
      run: echo 'BW_METRIC one 1 unit'
`;

describe("CatalogSource", () => {
  it("picks up definitions dropped in, edited or removed while the server runs", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-benchmarks-"));
    const logs: string[] = [];
    const source = new CatalogSource(dir, (l) => logs.push(l));
    expect(source.current().tool("dropped")).toBeUndefined();
    writeFileSync(join(dir, "dropped.yaml"), definition("dropped"));
    expect(source.current().tool("dropped")?.workloads.map((w) => w.id)).toEqual(["once"]);
    rmSync(join(dir, "dropped.yaml"));
    expect(source.current().tool("dropped")).toBeUndefined();
    expect(source.current().tool("sysbench")).toBeDefined();
    expect(logs).toEqual([]);
  });

  it("keeps the catalog it had and says why when a dropped definition is broken", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-benchmarks-"));
    writeFileSync(join(dir, "good.yaml"), definition("good"));
    const logs: string[] = [];
    const source = new CatalogSource(dir, (l) => logs.push(l));
    writeFileSync(join(dir, "broken.yaml"), "id: broken\nparser: nonsense\n");
    expect(source.current().tool("good")).toBeDefined();
    expect(logs.join("\n")).toMatch(/broken\.yaml/);
  });
});
