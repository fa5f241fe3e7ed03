import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BUILTIN_TOOLS_DIR } from "./catalog.js";
import { definitionOf, parseDefinition } from "./definition.js";
import { PARSED_BUILTINS_FILE, parsedBuiltins } from "./parsed-builtins.js";
import { parsers } from "./parsers/index.js";

const out = mkdtempSync(join(tmpdir(), "bw-parsed-builtins-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));
// The build step, as the package's build runs it.
execFileSync(process.execPath, [fileURLToPath(new URL("../scripts/parse-builtins.mjs", import.meta.url)), out]);
const keptIn = join(out, PARSED_BUILTINS_FILE);
const files = Object.keys(JSON.parse(readFileSync(keptIn, "utf8")) as object).map((name) => join(BUILTIN_TOOLS_DIR, name));

describe("the built-in definitions parsed at build time (issue 36)", () => {
  it("keeps every built-in definition, so that a start parses no YAML", () => {
    const names = new Set(files.map((f) => f.slice(BUILTIN_TOOLS_DIR.length)));
    expect(names.size).toBeGreaterThan(20);
    for (const name of ["idle/definition.yaml", "fio/definition.yaml"]) expect(names).toContain(name);
  });

  it("gives each file what parsing its text gives, and so the same definition", () => {
    const lookup = parsedBuiltins(BUILTIN_TOOLS_DIR, keptIn);
    const names = Object.keys(parsers);
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const raw = lookup(file, text);
      expect(raw, file).toEqual(parse(text));
      expect(definitionOf(raw, file, names), file).toEqual(parseDefinition(text, file, names));
    }
  });

  it("gives nothing for a text edited since the build, nor for a file it does not keep", () => {
    const lookup = parsedBuiltins(BUILTIN_TOOLS_DIR, keptIn);
    const [file] = files as [string];
    expect(lookup(file, `${readFileSync(file, "utf8")}\n# edited\n`)).toBeUndefined();
    expect(lookup(join(BUILTIN_TOOLS_DIR, "nothing/definition.yaml"), "id: x\n")).toBeUndefined();
    expect(parsedBuiltins(BUILTIN_TOOLS_DIR, join(out, "missing.json"))(file, readFileSync(file, "utf8"))).toBeUndefined();
  });
});
