import { describe, expect, it } from "vitest";
import { findJsonObject, toNumber } from "./util.js";

describe("findJsonObject", () => {
  const any = () => true;

  it("finds a top-level object between log lines", () => {
    expect(findJsonObject('warning: x\n{\n  "a": {\n    "b": 1\n  }\n}\n[done]\n', any)).toEqual({ a: { b: 1 } });
  });

  it("skips objects the caller does not want", () => {
    const out = '{\n"other": 1\n}\n{\n"jobs": []\n}\n';
    expect(findJsonObject(out, (v) => Array.isArray(v.jobs))).toEqual({ jobs: [] });
  });

  it("stays fast and empty on a large truncated document", () => {
    const body = Array.from({ length: 5000 }, (_, i) => `{\n"k${i}": 1\n}`).join("\n");
    const started = Date.now();
    expect(findJsonObject(`{\n"list": [\n${body}\n`, (v) => "list" in v)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("toNumber", () => {
  it("accepts decimals only", () => {
    expect(toNumber("1.5")).toBe(1.5);
    expect(toNumber("-2e3")).toBe(-2000);
    expect(toNumber("0x10")).toBeUndefined();
    expect(toNumber("nan")).toBeUndefined();
    expect(toNumber("")).toBeUndefined();
    expect(toNumber(undefined)).toBeUndefined();
  });
});
