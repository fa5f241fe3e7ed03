import { describe, expect, it } from "vitest";
import { amount, figure, shortDigest } from "./format.js";

describe("amount", () => {
  it("keeps four significant digits and drops the trailing zeros figure keeps below 0.001", () => {
    expect(figure(0.000304)).toBe("0.0003040");
    expect(amount(0.000304)).toBe("0.000304");
    expect(amount(0.0025951)).toBe("0.002595");
    expect(amount(12.5)).toBe("12.5");
    expect(amount(1234567)).toBe("1235000");
  });
});

describe("shortDigest", () => {
  it("keeps a digest's first 12 hex digits, without its sha256: prefix", () => {
    expect(shortDigest(`sha256:${"0c9a7e5b3d1f".padEnd(64, "e")}`)).toBe("0c9a7e5b3d1f");
  });
});
