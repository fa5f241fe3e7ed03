import type { Request, RequestHandler, Response } from "express";
import { loadSpec } from "@benchwright/contract";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { headerParametersByOperation, REMEMBERED_PATHS, rememberedValidation } from "./remembered-validation.js";
import { responseValidationOf } from "./response-validation.js";
import type { OpenApiRequest } from "../api/routes.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";

describe("the validator's remembered verdicts", () => {
  const headers = headerParametersByOperation(loadSpec() as never);
  // A stand-in for express-openapi-validator that counts its calls: what is under test is
  // when it is asked, and what a request gets when it is not.
  let calls = 0;
  const validate: RequestHandler = (req, _res, next) => {
    calls++;
    if (req.url.includes("bad")) return next(new Error("refused"));
    (req as OpenApiRequest).openapi = { pathParams: { exec_id: req.url.split("/").pop() }, schema: { operationId: "getExecution" } };
    next();
  };
  const remembering = rememberedValidation(validate, () => "getExecution", headers);
  const send = (method: string, url: string, reqHeaders: Record<string, string> = {}) => {
    const req = { method, url, originalUrl: url, headers: reqHeaders } as unknown as Request;
    let error: unknown;
    remembering(req, {} as Response, (e?: unknown) => (error = e));
    return { req: req as OpenApiRequest, error };
  };

  it("knows the contract's header parameters", () => {
    expect(headers.get("getExecution")).toEqual(["x-fields"]);
    expect(headers.get("getExecutionLog")).toEqual(["range"]);
    expect(headers.get("streamEvents")).toEqual(["last-event-id"]);
  });

  it("asks the validator once for a plain read of a path, and gives each request its own parameters", () => {
    calls = 0;
    const first = send("GET", "/api/v1/executions/one");
    (first.req.openapi!.pathParams as Record<string, unknown>).exec_id = "changed by a handler";
    const second = send("GET", "/api/v1/executions/one");
    expect(calls).toBe(1);
    expect(second.error).toBeUndefined();
    expect(second.req.openapi).toEqual({ pathParams: { exec_id: "one" }, schema: { operationId: "getExecution" } });
    expect(second.req.params).toBe(second.req.openapi!.pathParams);
  });

  it("asks it every time for what a request could make differ: a query, a declared header, a body, another method, a rewritten path", () => {
    send("GET", "/api/v1/executions/two");
    calls = 0;
    send("GET", "/api/v1/executions/two?x=1");
    send("GET", "/api/v1/executions/two", { "x-fields": "id" });
    send("POST", "/api/v1/executions/two");
    send("DELETE", "/api/v1/executions/two");
    const rewritten = {
      method: "GET",
      url: "/api/v1/executions/two",
      originalUrl: "/API/v1/executions/two",
      headers: {},
    } as unknown as Request;
    remembering(rewritten, {} as Response, () => {});
    expect(calls).toBe(5);
    send("HEAD", "/api/v1/executions/two");
    expect(calls).toBe(6);
  });

  it("never remembers a refusal", () => {
    calls = 0;
    expect(send("GET", "/api/v1/executions/bad").error).toBeInstanceOf(Error);
    expect(send("GET", "/api/v1/executions/bad").error).toBeInstanceOf(Error);
    expect(calls).toBe(2);
  });

  it(`keeps the last ${REMEMBERED_PATHS} paths`, () => {
    for (let i = 0; i <= REMEMBERED_PATHS; i++) send("GET", `/api/v1/executions/many-${i}`);
    calls = 0;
    send("GET", `/api/v1/executions/many-${REMEMBERED_PATHS}`);
    expect(calls).toBe(0);
    send("GET", "/api/v1/executions/many-0");
    expect(calls).toBe(1);
  });
});

// The real app as a server runs it (answers unchecked, so verdicts are remembered): after a
// path's verdict is kept, requests that differ from it in any way the contract checks are
// still refused.
describe("a server that remembers verdicts", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let id: string;

  beforeAll(async () => {
    expect(responseValidationOf(), "BENCHWRIGHT_VALIDATE_RESPONSES must be unset for this test").toBe("off");
    fx = await openFixture();
    api = request(createApp({ engine: fx.engine, validateResponses: false }));
    const session = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
    id = (await api.post(`/api/v1/sessions/${session}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
  }, 30_000);

  afterAll(async () => {
    await fx?.close();
  });

  it("refuses what differs from a remembered read: a bad query, a bad declared header, another case, a bad id", async () => {
    for (let i = 0; i < 2; i++) expect((await api.get(`/api/v1/executions/${id}`).expect(200)).body.id).toBe(id);
    expect((await api.get(`/api/v1/executions/${id}?state=nonsense`)).status).toBe(400);
    expect((await api.get(`/api/v1/executions/${id}`).set("X-Fields", "{{")).status).toBe(400);
    expect((await api.get(`/api/v1/Executions/${id}`)).status).toBe(404);
    for (let i = 0; i < 2; i++) {
      const bad = await api.get("/api/v1/executions/not-an-id");
      expect(bad.status).toBe(400);
      expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    }
    // A masked read of the same path is its own, and the plain one is whole again after it.
    expect(Object.keys((await api.get(`/api/v1/executions/${id}`).set("X-Fields", "id").expect(200)).body)).toEqual(["id"]);
    expect((await api.get(`/api/v1/executions/${id}`).expect(200)).body.state).toBe("created");
  });
});
