import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "./catalog.js";
import { README_BEGIN, README_END, debianPackages, renderCatalogReference, replaceGenerated } from "./readme.js";

const README = new URL("../README.md", import.meta.url);

describe("the README's reference of the built-in catalog", () => {
  const catalog = loadCatalog({ onError: (file, e) => expect.fail(`${file}: ${e.message}`) });
  const section = renderCatalogReference(catalog);

  it("is up to date with the definitions (npm run readme -w @benchwright/catalog writes it)", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme.slice(readme.indexOf(README_BEGIN), readme.indexOf(README_END) + README_END.length)).toBe(section);
  });

  it("names every tool and workload, every parameter and every declared figure", () => {
    for (const tool of catalog.tools()) {
      expect(section).toContain(`### \`${tool.id}\`: `);
      for (const w of tool.workloads) {
        expect(section).toContain(`| \`${w.id}\` |`);
        for (const name of Object.keys(w.params)) expect(section).toMatch(new RegExp(`\`${name}(=|\`)`));
      }
      for (const name of Object.keys(tool.metrics ?? {})) expect(section).toContain(`| \`${name}\` |`);
    }
  });

  it("renders roles where a workload declares them, and takes packages from the install script", () => {
    const roled = catalog.tools().flatMap((t) => t.workloads.filter((w) => w.roles).map((w) => [t, w] as const));
    for (const [, w] of roled) for (const name of Object.keys(w.roles!)) expect(section).toContain(`\`${name}\` (${w.roles![name]!.count}`);
    expect(debianPackages(catalog.tool("compression")!)).toEqual(["zstd", "xz-utils", "gzip", "pigz", "lz4", "bzip2", "brotli"]);
    expect(debianPackages(catalog.tool("idle")!)).toEqual([]);
  });

  it("is replaced between its markers only, and refused without them", () => {
    const text = `# Title\n\nintro\n\n${README_BEGIN}\nold\n${README_END}\n\n## After\n`;
    expect(replaceGenerated(text, `${README_BEGIN}\nnew\n${README_END}`)).toBe(`# Title\n\nintro\n\n${README_BEGIN}\nnew\n${README_END}\n\n## After\n`);
    expect(() => replaceGenerated("# no markers", "x")).toThrow(/lacks the lines/);
  });
});
