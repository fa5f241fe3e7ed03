import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
    expect(
      source
        .current()
        .tool("dropped")
        ?.workloads.map((w) => w.id),
    ).toEqual(["once"]);
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

  it("starts with a dangling symlink in the folder, logs it, and serves the built-ins and the good files", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-benchmarks-"));
    writeFileSync(join(dir, "good.yaml"), definition("good"));
    symlinkSync(join(dir, "elsewhere.yaml"), join(dir, "dangling.yaml"));
    const logs: string[] = [];
    const source = new CatalogSource(dir, (l) => logs.push(l));
    expect(source.current().tool("good")).toBeDefined();
    expect(source.current().tool("sysbench")).toBeDefined();
    expect(logs).toEqual([`benchmark definition skipped: ${join(dir, "dangling.yaml")}: is a symbolic link to nothing`]);
  });

  it("skips each bad file dropped in while it runs, and picks up the link's target once it exists", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-benchmarks-"));
    writeFileSync(join(dir, "good.yaml"), definition("good"));
    const logs: string[] = [];
    const source = new CatalogSource(dir, (l) => logs.push(l));
    const target = mkdtempSync(join(tmpdir(), "bw-benchmarks-target-"));
    symlinkSync(join(target, "linked.yaml"), join(dir, "linked.yaml"));
    mkdirSync(join(dir, "folder.yaml"));
    writeFileSync(join(dir, "typo.yaml"), definition("typo").replace("parser: keyvalue", "parser: nonsense"));
    expect(
      source
        .current()
        .tools()
        .map((t) => t.id),
    ).toEqual(expect.arrayContaining(["good", "idle", "sysbench"]));
    expect(source.current().tool("typo")).toBeUndefined();
    expect(logs.join("\n")).toMatch(/linked\.yaml: is a symbolic link to nothing/);
    expect(logs.join("\n")).toMatch(/folder\.yaml: is not a regular file/);
    expect(logs.join("\n")).toMatch(/typo\.yaml: invalid definition/);
    writeFileSync(join(target, "linked.yaml"), definition("linked"));
    expect(source.current().tool("linked")).toBeDefined();
    expect(source.current().tool("good")).toBeDefined();
  });

  it("serves the built-ins when the folder is not a folder", () => {
    const parent = mkdtempSync(join(tmpdir(), "bw-config-"));
    writeFileSync(join(parent, "benchmarks"), "a file where the folder should be");
    const logs: string[] = [];
    const source = new CatalogSource(join(parent, "benchmarks"), (l) => logs.push(l));
    expect(source.current().tool("sysbench")).toBeDefined();
    expect(logs.join("\n")).toMatch(/benchmarks: is not a directory/);
  });
});
