import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { loadSpec, loadSwagger } from "./index.js";

// The transform itself is a build script (plain ESM, run before tsc): loaded as such.
const scriptUrl = new URL("../scripts/swagger2.mjs", import.meta.url).href;
// biome-ignore lint/suspicious/noExplicitAny: the converted document is untyped JSON, read by path
const { toSwagger2 } = (await import(scriptUrl)) as { toSwagger2: (spec: object) => Record<string, any> };

const tiny = (schemas: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1", summary: "s", license: { name: "Apache-2.0", identifier: "Apache-2.0" } },
  servers: [{ url: "/api/v1" }],
  paths: {
    "/things/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: {
        operationId: "getThing",
        parameters: [
          {
            name: "tags",
            in: "query",
            style: "form",
            explode: false,
            schema: { type: "array", items: { $ref: "#/components/schemas/Tag" } },
          },
        ],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } } },
      },
    },
  },
  components: { schemas: { Tag: { type: "string", description: "a tag", enum: ["a", "b"] }, ...schemas } },
  ...extra,
});

describe("the Swagger 2.0 rendition of the contract", () => {
  it("is built with the bundle, valid Swagger 2.0, with the contract's every operation", async () => {
    const swagger = loadSwagger() as { swagger: string; paths: Record<string, Record<string, { operationId: string }>> };
    await expect(SwaggerParser.validate(structuredClone(swagger) as never)).resolves.toBeTruthy();
    const ids = (doc: { paths: Record<string, Record<string, { operationId?: string }>> }) =>
      Object.values(doc.paths)
        .flatMap((item) =>
          Object.values(item)
            .map((op) => op.operationId)
            .filter(Boolean),
        )
        .sort();
    expect(ids(swagger)).toEqual(ids(loadSpec() as never));
    // Validating the whole contract takes seconds on a loaded 2-core machine.
  }, 30_000);

  it("says in 2.0 what 3.1 says with null types, const, examples, oneOf and array parameters", async () => {
    const out = toSwagger2(
      tiny({
        A: {
          type: "object",
          required: ["kind", "a"],
          properties: { kind: { const: "a" }, a: { type: ["integer", "null"], examples: [3] } },
        },
        B: { type: "object", required: ["kind"], properties: { kind: { const: "b" }, b: { type: "string", exclusiveMinimum: 0 } } },
        Thing: { oneOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/B" }] },
      }),
    );
    await expect(SwaggerParser.validate(structuredClone(out) as never)).resolves.toBeTruthy();
    expect(out.basePath).toBe("/api/v1");
    expect(out.definitions.A.properties.a).toEqual({ type: "integer", "x-nullable": true, example: 3 });
    expect(out.definitions.A.properties.kind).toEqual({ enum: ["a"] });
    // Widened so that both branches' values pass: only what both require stays required.
    expect(out.definitions.Thing).toMatchObject({
      type: "object",
      required: ["kind"],
      "x-oneOf": [{ $ref: "#/definitions/A" }, { $ref: "#/definitions/B" }],
    });
    expect(Object.keys(out.definitions.Thing.properties)).toEqual(["kind", "a", "b"]);
    const tags = out.paths["/things/{id}"].get.parameters[0];
    expect(tags).toEqual({
      name: "tags",
      in: "query",
      type: "array",
      items: { type: "string", enum: ["a", "b"] },
      collectionFormat: "csv",
    });
  });

  it("refuses, at build time, a keyword it has no 2.0 form for, rather than drop it", () => {
    expect(() => toSwagger2(tiny({ Thing: { type: "array", prefixItems: [{ type: "string" }] } }))).toThrow(/prefixItems.*teach scripts\/swagger2.mjs/);
    expect(() => toSwagger2(tiny({ Thing: { type: "string" } }, { servers: [{ url: "https://api.example/v1" }] }))).toThrow(/not a path/);
  });
});
