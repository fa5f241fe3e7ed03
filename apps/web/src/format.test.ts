import { describe, expect, it } from "vitest";
import { amount, figure } from "./format.js";

describe("amount", () => {
  it("keeps four significant digits and drops the trailing zeros figure keeps below 0.001", () => {
    expect(figure(0.000304)).toBe("0.0003040");
    expect(amount(0.000304)).toBe("0.000304");
    expect(amount(0.0025951)).toBe("0.002595");
    expect(amount(12.5)).toBe("12.5");
    expect(amount(1234567)).toBe("1235000");
  });
});
