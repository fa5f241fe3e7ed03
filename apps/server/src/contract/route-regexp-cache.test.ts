import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";

// The validator's own copy of path-to-regexp, counted before the app puts its cache in front.
const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const pathToRegexpModule = fromValidator("path-to-regexp") as { pathToRegexp: (...args: unknown[]) => unknown };
let compiled = 0;
const original = pathToRegexpModule.pathToRegexp;
pathToRegexpModule.pathToRegexp = (...args: unknown[]) => {
  compiled++;
  return original(...args);
};

describe("the validator's route lookup", () => {
  let fx: Fixture;
  let http: Listening;
  let sid: string;

  beforeAll(async () => {
    fx = await openFixture();
    http = await listen(fx.app);
    const created = await http.send("POST", "/api/v1/sessions/", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ provider: "local", service: "default" }),
    });
    sid = (created.json as { id: string }).id;
  });
  afterAll(async () => {
    await http.close();
    await fx.close();
  });

  it("compiles each route once, not on every request", async () => {
    await http.send("GET", `/api/v1/sessions/${sid}`);
    const afterFirst = compiled;
    expect(afterFirst).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) expect((await http.send("GET", `/api/v1/sessions/${sid}`)).status).toBe(200);
    expect(compiled).toBe(afterFirst);
  });

  it("still matches case and parameters as the contract spells them", async () => {
    const session = await http.send("GET", `/api/v1/sessions/${sid}`);
    expect(session.json).toMatchObject({ id: sid });
    expect((await http.send("GET", `/api/v1/Sessions/${sid}`)).status).toBe(404);
    // An id that breaks the contract's pattern: the request was matched to its operation and checked.
    const malformed = await http.send("GET", "/api/v1/executions/424242");
    expect(malformed.json).toMatchObject({ status: 400, code: "validation_failed" });
  });
});
