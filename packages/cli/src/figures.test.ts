import { describe, expect, it } from "vitest";
import { figure, verdictText } from "./figures.js";
import { metricsTable } from "./tables.js";

describe("figures as tables print them", () => {
  it("keeps six significant digits, whole numbers as they are", () => {
    expect(figure(5.003333333333333)).toBe("5.00333");
    expect(figure(0.000123456789)).toBe("0.000123457");
    expect(figure(2401.333333)).toBe("2401.33");
    expect(figure(1234567.891)).toBe("1234568");
    expect(figure(42)).toBe("42");
  });

  it("prints a metric's value rounded in the table", () => {
    const text = metricsTable([{ name: "idle_seconds", value: 5.003333333333333, unit: "s", tags: {} } as never]);
    expect(text).toMatch(/idle_seconds\s+5\.00333\s+s/);
    expect(text).not.toContain("5.0033333");
  });

  it("says each verdict in words", () => {
    expect(verdictText("no_difference")).toBe("no difference");
    expect(verdictText("unknown")).toBe("unknown");
    expect(verdictText("worse")).toBe("worse");
  });
});
