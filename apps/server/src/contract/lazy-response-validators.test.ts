import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { compilations } from "../test-support/ajv-compilations.js";
import { loadSpec, wholeAnswers } from "@benchwright/contract";
import { lazyResponseValidators } from "./lazy-response-validators.js";

const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const { ResponseValidator } = fromValidator("./middlewares/openapi.response.validator") as {
  ResponseValidator: new (
    spec: unknown,
    options: unknown,
  ) => { buildValidators(responses: unknown, key: string): Record<string, Record<string, (data: unknown) => boolean>> };
};
describe("response validators compiled per status, at its first answer", () => {
  it("compiles nothing for an operation until a status is checked, then that status alone, and still refuses a body that breaks it", () => {
    expect(lazyResponseValidators()).toBe(true);
    const spec = wholeAnswers(loadSpec()) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    const responses = spec.paths["/sessions/"].get.responses;
    const validator = new ResponseValidator(spec, { formats: {}, serDesMap: {}, strict: false });
    let validators: Record<string, Record<string, (data: unknown) => boolean>> = {};
    expect(compilations(() => (validators = validator.buildValidators(responses, "GET-/sessions/-not_provided")))).toBe(0);
    // Every status the contract declares is there, each with its JSON media type.
    expect(Object.keys(validators).sort()).toEqual(Object.keys(responses).sort());
    let ok: (data: unknown) => boolean = () => false;
    const first = compilations(() => (ok = validators["200"]["application/json"]));
    expect(first).toBeGreaterThan(0);
    expect(compilations(() => validators["200"]["application/json"])).toBe(0);
    expect(ok({ response: [] })).toBe(true);
    expect(ok({ response: [{ id: 42 }] })).toBe(false);
    expect(ok({ response: {} })).toBe(false);
  });
});
