import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadCatalog } from "./catalog.js";
import type { CatalogError } from "./errors.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "parsers", "fixtures");

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A catalog of the built-ins and one extra definition; what was left out, by message. */
function withDefinition(text: string) {
  const dir = mkdtempSync(join(tmpdir(), "bw-meaning-"));
  dirs.push(dir);
  writeFileSync(join(dir, "mine.yaml"), text);
  const errors: CatalogError[] = [];
  const catalog = loadCatalog({ extraDirs: [dir], onError: (_f, e) => errors.push(e) });
  return { catalog, messages: errors.map((e) => e.message).join("\n") };
}

const mine = (metrics: string) => `
id: mine
tool_name: Mine
parser: keyvalue
${metrics}
workloads:
  - id: one
    scripts:
      run: echo "BW_METRIC answer 42 units"
`;

describe("what a figure means", () => {
  const catalog = loadCatalog();

  it("is declared, unit and direction, for every figure a built-in parser reads from a real tool's recorded output", () => {
    let seen = 0;
    for (const tool of readdirSync(FIXTURES)) {
      const def = catalog.tool(tool)!;
      for (const file of readdirSync(join(FIXTURES, tool))) {
        for (const m of catalog.parse(tool, def.workloads[0]!.id, readFileSync(join(FIXTURES, tool, file), "utf8"))) {
          seen++;
          expect(def.metrics?.[m.name], `${tool} ${file}: ${m.name} is declared`).toMatchObject({ unit: m.unit });
          expect(["higher", "lower"], `${tool} ${file}: ${m.name}`).toContain(m.better);
        }
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(catalog.parse("idle", "idle0", "BW_METRIC idle_seconds 0.01 s")).toEqual([{ name: "idle_seconds", value: 0.01, unit: "s", better: "lower" }]);
  });

  it("says throughput is better higher and latency better lower", () => {
    expect(catalog.tool("sysbench")!.metrics!.events_per_second!.better).toBe("higher");
    expect(catalog.tool("fio")!.metrics!.clat_p99_us!.better).toBe("lower");
  });

  it("is not claimed for a figure whose unit differs from the declared one, nor for an undeclared name", () => {
    const { catalog: c } = withDefinition(mine('metrics:\n  answer: { unit: "s", better: higher }'));
    expect(c.parse("mine", "one", "BW_METRIC answer 42 units\nBW_METRIC other 1 s")).toEqual([
      { name: "answer", value: 42, unit: "units" },
      { name: "other", value: 1, unit: "s" },
    ]);
    const ok = withDefinition(mine('metrics:\n  answer: { unit: "units", better: lower, description: "The answer" }'));
    expect(ok.catalog.parse("mine", "one", "BW_METRIC answer 42 units")).toEqual([{ name: "answer", value: 42, unit: "units", better: "lower" }]);
    expect(ok.catalog.tool("mine")!.metrics).toEqual({ answer: { unit: "units", better: "lower", description: "The answer" } });
  });

  it("is checked when a definition is loaded: each problem named, the definition left out", () => {
    const { catalog: c, messages } = withDefinition(
      mine(
        'metrics:\n  answer: { unit: "", better: faster }\n  "bad name": { unit: s, better: lower }\n  extra: { unit: s, better: lower, scale: 2 }\n  plain: 3',
      ),
    );
    expect(c.tool("mine")).toBeUndefined();
    expect(messages).toContain("metrics.answer.unit: must be a non-empty string");
    expect(messages).toContain("metrics.answer.better: must be one of: higher, lower");
    expect(messages).toContain("metrics.bad name: is not a valid metric name");
    expect(messages).toContain("metrics.extra.scale: is not unit, better or description");
    expect(messages).toContain("metrics.plain: must be a mapping {unit, better, description}");
  });
});
