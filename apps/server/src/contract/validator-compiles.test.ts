import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";
import { cheapValidatorCompiles } from "./validator-compiles.js";

// The validator's own Ajv, whose added schemas and the keys of the objects it walks are counted.
const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const ajvCore = createRequire(fromValidator.resolve("ajv"))("./core") as {
  default: { prototype: { addSchema(schema: object, key?: string): unknown } };
};
const util = fromValidator("./middlewares/util") as { useAjvCache(ajv: unknown, schema: object, key: string): (data: unknown) => boolean };
const { createRequestAjv } = fromValidator("./framework/ajv") as { createRequestAjv(spec: unknown, options: object): unknown };

let added = 0;
let walked = 0;
const addSchema = ajvCore.default.prototype.addSchema;
ajvCore.default.prototype.addSchema = function (this: unknown, schema: object, key?: string) {
  added++;
  // What Ajv's walk for `$id`s sees of the schema: its enumerable keys.
  walked += Object.keys(schema).length;
  return addSchema.call(this, schema, key);
};

const SESSION = JSON.stringify({ provider: "local", service: "default" });

describe("the validator's schema compilations", () => {
  let fx: Fixture;
  let http: Listening;
  const create = (contentType: string, body = SESSION) => http.send("POST", "/api/v1/sessions/", { headers: { "Content-Type": contentType }, body });

  beforeAll(async () => {
    fx = await openFixture();
    http = await listen(fx.app);
  });
  afterAll(async () => {
    await http.close();
    await fx.close();
  });

  it("compiles a route's schemas once, whatever Content-Type spelling asks for them", async () => {
    expect((await create("application/json")).status).toBe(200);
    const first = added;
    expect(first).toBeGreaterThan(0);
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/json;charset=UTF-8"]) {
      expect((await create(type)).status, type).toBe(200);
    }
    expect(added).toBe(first);
  });

  it("still checks a body against the component its $ref names, and the answer against its own", async () => {
    const wrong = await create("application/json; charset=utf-8", JSON.stringify({ provider: 42, service: "default" }));
    expect(wrong.json).toMatchObject({ status: 400, code: "validation_failed" });
    expect(JSON.stringify(wrong.json)).toContain("/body/provider");
    // The fixture's app fails an answer that breaks the contract: a 200 is a checked one.
    const session = await create("application/json");
    expect(session.status).toBe(200);
    expect(session.json).toMatchObject({ id: expect.any(String), state: expect.any(String) });
  });

  it("hands Ajv the contract's paths and components hidden from its walk, and resolves through them", () => {
    expect(cheapValidatorCompiles()).toBe(true);
    const spec = { openapi: "3.1.0", paths: { "/x": { get: {} } }, components: { schemas: { N: { type: "integer", maximum: 3 } } } };
    const ajv = createRequestAjv(spec, { formats: {}, serDesMap: {}, strict: false, validateSchema: false });
    const schema = { ...spec, properties: { body: { $ref: "#/components/schemas/N" } } };
    const before = walked;
    const validate = util.useAjvCache(ajv, schema, "k");
    // Only `properties` and `openapi`: not the spec's two parts.
    expect(walked - before).toBe(2);
    expect([validate({ body: 2 }), validate({ body: 7 }), validate({ body: "x" })]).toEqual([true, false, false]);
    // An equal schema under another key: the same validator, nothing added.
    const again = added;
    expect(util.useAjvCache(ajv, { ...schema }, "k2")).toBe(validate);
    expect(added).toBe(again);
  });

  it("leaves a spec whose schemas carry an $id to Ajv's own walk", () => {
    cheapValidatorCompiles();
    const spec = { openapi: "3.1.0", paths: {}, components: { schemas: { N: { $id: "https://example.com/n", type: "integer" } } } };
    const ajv = createRequestAjv(spec, { formats: {}, serDesMap: {}, strict: false, validateSchema: false });
    const before = walked;
    const validate = util.useAjvCache(ajv, { ...spec, properties: { body: { $ref: "https://example.com/n" } } }, "k");
    expect(walked - before).toBe(4);
    expect([validate({ body: 2 }), validate({ body: "x" })]).toEqual([true, false]);
  });
});
