import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "@benchwright/catalog";
import { afterAll, describe, expect, it } from "vitest";
import { benchwrightVersion, definitionDigest, runProvenance, sha256Digest } from "./provenance.js";

const dir = mkdtempSync(join(tmpdir(), "bw-provenance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A catalogue with one dropped-in tool, `mine`, written as these YAML lines in `sub`. */
function catalogWith(sub: string, lines: string[]) {
  const extra = mkdtempSync(join(dir, `${sub}-`));
  writeFileSync(join(extra, "mine.yaml"), lines.join("\n"));
  return loadCatalog({ extraDirs: [extra], onError: (file, e) => expect.fail(`${file}: ${e.message}`) });
}

const MINE = [
  "id: mine",
  "tool_name: Mine",
  "parser: keyvalue",
  "scripts:",
  "  install: bw_install mine",
  "workloads:",
  "  - id: one",
  "    scripts: { run: 'echo BW_METRIC x 1 u' }",
];

describe("digests", () => {
  it("are sha256 of the text, hex, prefixed", () => {
    expect(sha256Digest("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Digest("")).toBe(`sha256:${createHash("sha256").digest("hex")}`);
  });

  it("of a definition do not depend on its YAML's order, layout or file, and change with any of its scripts", () => {
    const one = catalogWith("a", MINE).tool("mine")!;
    // The same definition, its keys in another order, in flow style, in another directory.
    const reordered = catalogWith("b", [
      "workloads: [{ scripts: { run: 'echo BW_METRIC x 1 u' }, id: one }]",
      "scripts: { install: bw_install mine }",
      "parser: keyvalue",
      "tool_name: Mine",
      "id: mine",
    ]).tool("mine")!;
    expect(reordered.source).not.toBe(one.source);
    expect(definitionDigest(reordered)).toBe(definitionDigest(one));
    expect(definitionDigest(one)).toMatch(/^sha256:[0-9a-f]{64}$/);
    const changed = catalogWith(
      "c",
      MINE.map((l) => l.replace("echo BW_METRIC x 1 u", "echo BW_METRIC x 2 u")),
    ).tool("mine")!;
    expect(definitionDigest(changed)).not.toBe(definitionDigest(one));
  });

  it("of the built-in sysbench is the same for every catalogue that loads it", () => {
    const a = loadCatalog().tool("sysbench")!;
    const b = loadCatalog().tool("sysbench")!;
    expect(definitionDigest(a)).toBe(definitionDigest(b));
    expect(definitionDigest(a)).not.toBe(definitionDigest(loadCatalog().tool("fio")!));
  });
});

describe("a run's provenance", () => {
  const catalog = loadCatalog();
  const scripts = [{ machine: "m1", script: "echo one" }];

  it("names each machine's packages as its prepare read them, the params, the digests and the engine's version", () => {
    const vms = [
      { id: "m1", ip: "192.0.2.1", platform: "debian_12", facts: { tool_version: "sysbench 1.0.20+ds-5" } },
      { id: "m2", ip: "192.0.2.2", platform: "ubuntu_22_04", facts: { tool_version: "sysbench 1.0.20+ds-1, libluajit2-5.1-2 2.1-20230119" } },
      // A machine whose version could not be read has no packages.
      { id: "m3", ip: "192.0.2.3", platform: "debian_12", facts: {} },
    ];
    const p = runProvenance({
      catalog,
      toolId: "sysbench",
      workloadId: "cpu_10000",
      vms,
      params: { threads: "1", events: 100 },
      scripts: [...scripts, { machine: "m2", role: "client", script: "echo two" }],
    });
    expect(p).toEqual({
      tool: "sysbench",
      workload: "cpu_10000",
      packages: [
        { machine: "m1", name: "sysbench", version: "1.0.20+ds-5" },
        { machine: "m2", name: "sysbench", version: "1.0.20+ds-1" },
        { machine: "m2", name: "libluajit2-5.1-2", version: "2.1-20230119" },
      ],
      definition_digest: definitionDigest(catalog.tool("sysbench")!),
      params: { threads: "1", events: 100 },
      scripts: [
        { machine: "m1", digest: sha256Digest("echo one") },
        { machine: "m2", role: "client", digest: sha256Digest("echo two") },
      ],
      benchwright_version: JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version,
    });
    expect(benchwrightVersion()).toBe(p.benchwright_version);
  });

  it("names the tool itself where its definition's own version script printed the version", () => {
    const mine = catalogWith("d", [...MINE.slice(0, 5), "  version: cat VERSION", ...MINE.slice(5)]);
    const vms = [{ id: "m1", ip: "192.0.2.1", platform: "debian_12", facts: { tool_version: "2.5.1 (built today)" } }];
    const p = runProvenance({ catalog: mine, toolId: "mine", workloadId: "one", vms, params: {}, scripts });
    expect(p.packages).toEqual([{ machine: "m1", name: "mine", version: "2.5.1 (built today)" }]);
  });

  it("names the catalogue's tool for an execution made under an alias", () => {
    const alias = catalog.tools().find((t) => t.aliases?.length);
    if (!alias) return expect.fail("the built-in catalogue has a tool with an alias (idle's `testing`)");
    const p = runProvenance({ catalog, toolId: alias.aliases![0], workloadId: alias.workloads[0].id, vms: [], params: {}, scripts });
    expect(p.tool).toBe(alias.id);
    expect(p.packages).toEqual([]);
  });
});
