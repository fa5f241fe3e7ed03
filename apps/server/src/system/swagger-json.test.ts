import SwaggerParser from "@apidevtools/swagger-parser";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"];

/** `METHOD /path operationId` for every operation of a document (3.1 or 2.0: same layout). */
function operations(doc: { paths: Record<string, Record<string, { operationId?: string }>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => METHODS.includes(m))
        .map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`),
    )
    .sort();
}

describe("the contract as served", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  beforeAll(async () => {
    fx = await openFixture();
    api = request(fx.app);
  });
  afterAll(() => fx.close());

  it("serves a valid Swagger 2.0 rendition at /api/v1/swagger.json with the contract's operations", async () => {
    const swagger = (await api.get("/api/v1/swagger.json").expect(200).expect("content-type", /json/)).body;
    const openapi = (await api.get("/api/v1/openapi.json").expect(200)).body;
    expect(openapi.openapi).toBe("3.1.0");
    expect(swagger.swagger).toBe("2.0");
    // The validator dereferences what it is given: hand it a copy.
    await expect(SwaggerParser.validate(structuredClone(swagger))).resolves.toMatchObject({ swagger: "2.0" });
    expect(swagger.basePath).toBe("/api/v1");
    expect(operations(swagger)).toEqual(operations(openapi));
    expect(operations(swagger).length).toBeGreaterThan(10);
    expect(Object.keys(swagger.definitions).sort()).toEqual(Object.keys(openapi.components.schemas).sort());
  });

  it("prefills no X-Fields mask in Swagger UI's Try it out: the parameter has no example nor default", async () => {
    const openapi = (await api.get("/api/v1/openapi.json").expect(200)).body;
    const xFields = openapi.components.parameters.XFields;
    expect(xFields.name).toBe("X-Fields");
    // Swagger UI fills a parameter's input from these, and "Execute" sends what is filled.
    for (const where of [xFields, xFields.schema]) {
      expect(where).not.toHaveProperty("example");
      expect(where).not.toHaveProperty("examples");
      expect(where).not.toHaveProperty("default");
    }
    const inline = Object.values(openapi.paths as Record<string, Record<string, { parameters?: Array<{ name?: string }> }>>)
      .flatMap((item) => Object.values(item).flatMap((op) => op.parameters ?? []))
      .filter((p) => p.name?.toLowerCase() === "x-fields");
    expect(inline).toEqual([]);
  });
});
