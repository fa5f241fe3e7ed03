import { describe, expect, it } from "vitest";
import { parseByteRange } from "./byte-range.js";

describe("parseByteRange (RFC 9110 14.1.2)", () => {
  it.each([
    ["bytes=0-99", 1000, { kind: "range", start: 0, end: 99 }],
    ["bytes=100-", 1000, { kind: "range", start: 100, end: 999 }],
    ["bytes=-100", 1000, { kind: "range", start: 900, end: 999 }],
    ["bytes=-5000", 1000, { kind: "range", start: 0, end: 999 }],
    ["bytes=990-5000", 1000, { kind: "range", start: 990, end: 999 }],
    ["BYTES = 5 - 6", 1000, { kind: "range", start: 5, end: 6 }],
    ["bytes=999-999", 1000, { kind: "range", start: 999, end: 999 }],
    ["bytes=1000-", 1000, { kind: "unsatisfiable" }],
    ["bytes=2000-3000", 1000, { kind: "unsatisfiable" }],
    ["bytes=-0", 1000, { kind: "unsatisfiable" }],
    ["bytes=0-", 0, { kind: "unsatisfiable" }],
    ["bytes=-10", 0, { kind: "unsatisfiable" }],
    [undefined, 1000, { kind: "whole" }],
    ["bytes=0-1,5-6", 1000, { kind: "whole" }],
    ["bytes=6-5", 1000, { kind: "whole" }],
    ["bytes=-", 1000, { kind: "whole" }],
    ["bytes=a-b", 1000, { kind: "whole" }],
    ["bytes=1.5-2", 1000, { kind: "whole" }],
    ["lines=1-2", 1000, { kind: "whole" }],
    ["0-99", 1000, { kind: "whole" }],
  ] as const)("%s of %i bytes", (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});
