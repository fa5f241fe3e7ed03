import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { compilations } from "../test-support/ajv-compilations.js";
import { loadSpec, wholeAnswers } from "@benchwright/contract";
import { cheapValidatorStart } from "./validator-startup.js";

// The validator's own modules and its own Ajv, whose schema compilations are counted.
const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
// Read at each use, as the validator reads it: the start puts its own in place.
const metaModule = fromValidator("./framework/openapi.schema.validator") as {
  OpenAPISchemaValidator: new (opts: { version: string; validateApiSpec: boolean }) => { validate(doc: unknown): { errors: unknown[] } };
};
const { SchemaPreprocessor } = fromValidator("./middlewares/parsers/schema.preprocessor") as {
  SchemaPreprocessor: new (apiDoc: unknown, ajvOptions: unknown, responses: unknown) => { preProcess(): { apiDoc: unknown } };
};
describe("the validator's start (issue 36)", () => {
  it("compiles no schema before the first request: neither the OpenAPI meta-schema nor the contract's components", () => {
    expect(cheapValidatorStart()).toBe(true);
    // What the validator does at start, as openapi.validator.js and framework/index.js do it.
    const meta = compilations(() => new metaModule.OpenAPISchemaValidator({ version: "3.1.0", validateApiSpec: false }));
    const spec = wholeAnswers(loadSpec());
    let preprocessed: unknown;
    const pre = compilations(() => (preprocessed = new SchemaPreprocessor(spec, { formats: {}, serDesMap: {}, strict: false }, false).preProcess().apiDoc));
    // Ajv compiles its own meta-schema once, to check the schemas it is given; the contract has hundreds.
    expect({ meta, pre }).toEqual({ meta: 0, pre: 1 });
    expect(preprocessed).toBe(spec);
  });

  it("resolves each reference to the schema the contract gives, as Ajv's lookup does", () => {
    cheapValidatorStart();
    const spec = wholeAnswers(loadSpec()) as { components: { schemas: Record<string, unknown> } };
    const given = { ...spec.components.schemas };
    const pre = new SchemaPreprocessor(spec, { formats: {}, serDesMap: {}, strict: false }, false) as unknown as { resolveSchema(s: unknown): unknown };
    for (const [name, schema] of Object.entries(given)) expect(pre.resolveSchema({ $ref: `#/components/schemas/${name}` })).toBe(schema);
  });

  it("still checks a contract on request: validateApiSpec left on compiles the meta-schema", () => {
    cheapValidatorStart();
    expect(compilations(() => new metaModule.OpenAPISchemaValidator({ version: "3.1.0", validateApiSpec: true }))).toBeGreaterThan(0);
  });
});
