import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { loadSpec, wholeAnswers } from "./index.js";

type Op = {
  parameters?: Array<{ $ref?: string }>;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
};
type Spec = {
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, Op["responses"][string]> };
};

const handWritten = parse(readFileSync(new URL("../../../openapi/openapi.yaml", import.meta.url), "utf8")) as Spec;

/** The JSON success answers of the operations that take X-Fields, as `path method status`. */
function maskedAnswers(spec: Spec) {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m, op]) => m !== "parameters" && op.parameters?.some((p) => p.$ref === "#/components/parameters/XFields"))
      .flatMap(([m, op]) =>
        Object.entries(op.responses)
          .filter(([status]) => status.startsWith("2"))
          .map(([status, r]) => {
            const response = r.$ref ? spec.components.responses[r.$ref.split("/").pop()!] : r;
            return { at: `${path} ${m} ${status}`, schema: response.content?.["application/json"]?.schema as Record<string, unknown> };
          }),
      ),
  );
}

function keywordsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) found.add(k), keywordsIn(v, found);
  return found;
}

describe("the answers an X-Fields mask cuts down, in the bundled contract", () => {
  const spec = loadSpec() as unknown as Spec;

  it("describes every masked operation's success answer as anyOf [Whole, Masked]", () => {
    const answers = maskedAnswers(spec);
    expect(answers.length).toBeGreaterThanOrEqual(15);
    for (const { at, schema } of answers) {
      expect([at, (schema.anyOf as unknown[] | undefined)?.length]).toEqual([at, 2]);
    }
    expect(spec.components.schemas.SessionMasked).toBeDefined();
  });

  it("requires no field in a masked schema, at any depth", () => {
    const masked = Object.entries(spec.components.schemas).filter(([name]) => name.endsWith("Masked"));
    expect(masked.map(([n]) => n)).toEqual(expect.arrayContaining(["SessionMasked", "ExecutionMasked", "BenchmarkMasked", "StepAttemptMasked"]));
    for (const [name, schema] of masked) {
      const keywords = keywordsIn(schema);
      expect([name, keywords.has("required"), keywords.has("oneOf"), keywords.has("minProperties")]).toEqual([name, false, false, false]);
      // A masked schema's refs lead to masked schemas or to scalars only.
      for (const ref of JSON.stringify(schema).match(/#\/components\/schemas\/\w+/g) ?? []) {
        const target = spec.components.schemas[ref.split("/").pop()!] as Record<string, unknown>;
        expect([ref, ref.endsWith("Masked") || !("properties" in target || "items" in target)]).toEqual([ref, true]);
      }
    }
  });

  it("gives back the hand-written whole answers through wholeAnswers, for checks made before the mask", () => {
    const whole = wholeAnswers(spec as unknown as object) as unknown as Spec;
    const strip = (s: Record<string, unknown>) => JSON.parse(JSON.stringify(s));
    expect(maskedAnswers(whole).map((a) => [a.at, strip(a.schema)])).toEqual(maskedAnswers(handWritten).map((a) => [a.at, strip(a.schema)]));
    // The copy is new: the bundle is left as it was.
    expect((maskedAnswers(spec)[0].schema.anyOf as unknown[]).length).toBe(2);
  });
});
