import { describe, expect, it } from "vitest";
import { layoutBars, niceTicks } from "./bar-chart.js";

describe("niceTicks", () => {
  it("covers the range with round steps", () => {
    expect(niceTicks(0, 3310.4)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(niceTicks(0, 0.88)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-5, 5)).toEqual([-6, -4, -2, 0, 2, 4, 6]);
  });
});

describe("layoutBars", () => {
  const bars = [
    { key: "a", label: "a", value: 2400.2, low: 2387.4, high: 2413 },
    { key: "b", label: "b", value: 1201.5, low: 1191.1, high: 1211.9 },
    { key: "c", label: "c", value: 5 },
  ];

  it("gives one row per bar, from zero to the value, and an error bar only where there is an interval", () => {
    const layout = layoutBars(bars);
    expect(layout.bars).toHaveLength(3);
    const [a, b, c] = layout.bars;
    expect(a!.x0).toBe(layout.x(0));
    expect(a!.x1).toBeCloseTo(layout.x(2400.2));
    expect(b!.x1).toBeLessThan(a!.x1);
    expect(a!.errorX0).toBeLessThan(a!.x1);
    expect(a!.errorX1).toBeGreaterThan(a!.x1);
    expect(c!.errorX0).toBeUndefined();
    expect(new Set(layout.bars.map((g) => g.y)).size).toBe(3);
  });

  it("keeps every interval end inside the plot", () => {
    const layout = layoutBars([{ key: "a", label: "a", value: 10, low: 2, high: 19.9 }]);
    const g = layout.bars[0]!;
    expect(g.errorX1!).toBeLessThanOrEqual(layout.plotRight);
    expect(g.errorX0!).toBeGreaterThanOrEqual(layout.plotLeft);
  });

  it("keeps the axis and the error bars of a figure that cannot be negative at zero or above", () => {
    const wide = [{ key: "a", label: "a", value: 0.4, low: -0.35, high: 1.15 }];
    expect(layoutBars(wide).domain[0]).toBeLessThan(0);
    const layout = layoutBars(wide, 800, { nonNegative: true });
    expect(layout.domain[0]).toBe(0);
    expect(layout.ticks.every((t) => t >= 0)).toBe(true);
    expect(layout.bars[0]!.errorX0).toBe(layout.x(0));
  });

  it("draws a zero-length interval (one value) as a point, and all-zero values on a unit scale", () => {
    const layout = layoutBars([{ key: "a", label: "a", value: 0, low: 0, high: 0 }]);
    expect(layout.domain).toEqual([0, 1]);
    expect(layout.bars[0]!.errorX0).toBe(layout.bars[0]!.errorX1);
  });
});
