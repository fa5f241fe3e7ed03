import { describe, expect, it } from "vitest";
import { UsageError } from "./exit-codes.js";
import { parseParamArgs, typeParams } from "./params.js";

describe("--param", () => {
  it("reads name=value, the value whole (it may hold '=')", () => {
    expect(parseParamArgs(["threads=4", "expr=a=b", "empty="])).toEqual({ threads: "4", expr: "a=b", empty: "" });
  });

  it("refuses a value without a name, and a name given twice", () => {
    expect(() => parseParamArgs(["4"])).toThrow(UsageError);
    expect(() => parseParamArgs(["=4"])).toThrow(UsageError);
    expect(() => parseParamArgs(["a=1", "a=2"])).toThrow(/twice/);
  });

  it("types each value as the workload declares it", () => {
    const declared = [
      { name: "threads", type: "string" },
      { name: "seconds", type: "number" },
      { name: "count", type: "integer" },
      { name: "direct", type: "boolean" },
    ];
    expect(typeParams({ threads: "16", seconds: "2.5", count: "3", direct: "false" }, declared)).toEqual({
      threads: "16",
      seconds: 2.5,
      count: 3,
      direct: false,
    });
    expect(() => typeParams({ seconds: "soon" }, declared)).toThrow(/is a number/);
    expect(() => typeParams({ direct: "yes" }, declared)).toThrow(/true or false/);
  });

  it("guesses from the text where nothing is declared", () => {
    expect(typeParams({ a: "16", b: "true", c: "1,2,4", d: "" })).toEqual({ a: 16, b: true, c: "1,2,4", d: "" });
  });
});
