import { describe, expect, it } from "vitest";
import { responseValidationOf, validateResponsesOption } from "./response-validation.js";

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
    const lines: unknown[] = [];
    expect(validateResponsesOption("off", () => {})).toBe(false);
    expect(validateResponsesOption("fail", () => {})).toBe(true);
    const option = validateResponsesOption("log", (message, fields) => lines.push({ message, fields }));
    (option as { onError: (e: { message: string }, body: unknown, req: { path: string }) => void }).onError({ message: "bad" }, {}, { path: "/api/v1/x" });
    expect(lines).toEqual([{ message: "response breaks the contract", fields: { path: "/api/v1/x", error: "bad" } }]);
  });
});
