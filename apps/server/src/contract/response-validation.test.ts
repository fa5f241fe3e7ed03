import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { responseValidationOf, validateResponsesOption, withoutResponses } from "./response-validation.js";
import { captureLog } from "../test-support/captured-log.js";
import { openFixture } from "../test-support/fixture.js";

describe("BENCHWRIGHT_VALIDATE_RESPONSES", () => {
  it("is off unless set, and takes off, log or fail in any case", () => {
    expect(responseValidationOf({})).toBe("off");
    expect(responseValidationOf({ BENCHWRIGHT_VALIDATE_RESPONSES: "" })).toBe("off");
    expect(responseValidationOf({ BENCHWRIGHT_VALIDATE_RESPONSES: " Log " })).toBe("log");
    expect(responseValidationOf({ BENCHWRIGHT_VALIDATE_RESPONSES: "fail" })).toBe("fail");
  });

  it("refuses any other value, naming the choices", () => {
    expect(() => responseValidationOf({ BENCHWRIGHT_VALIDATE_RESPONSES: "yes" })).toThrow(/off, log, fail/);
  });

  it("maps to the validator's option: none, a logger, or failing answers", () => {
    const { log, entries } = captureLog();
    expect(validateResponsesOption("off", log)).toBe(false);
    expect(validateResponsesOption("fail", log)).toBe(true);
    const option = validateResponsesOption("log", log);
    (option as { onError: (e: { message: string }, body: unknown, req: { originalUrl: string }) => void }).onError(
      { message: "bad" },
      {},
      { originalUrl: "/api/v1/x" },
    );
    expect(entries()).toMatchObject([{ level: 40, msg: "response breaks the contract", path: "/api/v1/x", error: "bad" }]);
  });
});

describe("a validator that checks requests only", () => {
  it("gets the contract with its operations' answers undescribed, and nothing else changed", () => {
    const spec = {
      openapi: "3.1.0",
      paths: {
        "/things/{id}": {
          parameters: [{ name: "id", in: "path" }],
          summary: "Things",
          get: {
            operationId: "getThing",
            parameters: [{ name: "X-Fields", in: "header" }],
            responses: { "200": { description: "A thing" } },
          },
          post: {
            operationId: "addThing",
            requestBody: { $ref: "#/components/requestBodies/Thing" },
            responses: { "201": { description: "Added" } },
          },
        },
      },
      components: { schemas: { Thing: { type: "object" } } },
    };
    const stripped = withoutResponses(spec);
    expect(stripped.paths["/things/{id}"].get).toEqual({
      ...spec.paths["/things/{id}"].get,
      responses: { default: { description: "Not checked" } },
    });
    expect(stripped.paths["/things/{id}"].post.requestBody).toBe(spec.paths["/things/{id}"].post.requestBody);
    expect(stripped.paths["/things/{id}"].parameters).toBe(spec.paths["/things/{id}"].parameters);
    expect(stripped.paths["/things/{id}"].summary).toBe("Things");
    expect(stripped.components).toBe(spec.components);
    expect(spec.paths["/things/{id}"].get.responses).toEqual({ "200": { description: "A thing" } });
  });

  it("still refuses bad requests when answers go unchecked (the production default)", async () => {
    const fx = await openFixture();
    try {
      const api = request(createApp({ engine: fx.engine, validateResponses: false }));
      const bad = await api.post("/api/v1/sessions/").send({ provider: { a: 1 }, service: "default" });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "validation_failed" });
      expect((await api.get("/api/v1/executions/424242")).body).toMatchObject({ status: 400, code: "validation_failed" });
      const created = await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" });
      expect(created.status).toBe(200);
      expect((await api.get(`/api/v1/sessions/${created.body.id}`)).body).toMatchObject({ id: created.body.id, state: "active" });
    } finally {
      await fx.close();
    }
  });
});
