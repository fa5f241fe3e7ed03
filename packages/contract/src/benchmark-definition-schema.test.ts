import { readdirSync, readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

// The schema editors use (exported as @benchwright/contract/benchmark-definition.schema.json)
// takes every built-in definition, and refuses what the catalogue refuses that a schema can see.
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve("@benchwright/contract/benchmark-definition.schema.json"), "utf8"));
const tools = fileURLToPath(new URL("../../catalog/tools/", import.meta.url));

describe("benchmark-definition.schema.json", () => {
  const validate = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true }).compile(schema);

  it("takes every built-in definition", () => {
    const files = readdirSync(tools)
      .map((d) => join(tools, d, "definition.yaml"))
      .filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(validate(parse(readFileSync(file, "utf8"))), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });

  it("refuses an unknown parser and a metric without a unit", () => {
    const doc = { id: "x", tool_name: "X", parser: "nope", metrics: { a: { better: "higher" } }, workloads: [{ id: "w", scripts: { run: "true" } }] };
    expect(validate(doc)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => e.instancePath);
    expect(paths).toEqual(expect.arrayContaining(["/parser", "/metrics/a"]));
  });
});
