import { describe, expect, it } from "vitest";
import { costTotals, sessionCosts, type CostedExecution } from "./cost.js";

const at = (s: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, s));
const now = at(3600);
const step = (start: number, duration: number | null) => ({ started: at(start), duration });

describe("sessionCosts", () => {
  it("step_time: the time of the execution's own steps, a running one until now, × the price", () => {
    const executions: CostedExecution[] = [
      { id: "a", steps: [step(0, 600), step(700, 1200)], machines: ["h"] },
      { id: "b", steps: [step(1800, null)], machines: ["h"] },
    ];
    const costs = sessionCosts({ perHour: 0.2, currency: "EUR", basis: "step_time", executions }, now);
    expect(costs.get("a")).toEqual({ amount: 0.1, currency: "EUR", basis: "step_time", seconds: 1800 });
    expect(costs.get("b")).toEqual({ amount: 0.1, currency: "EUR", basis: "step_time", seconds: 1800 });
  });

  it("machine_lifetime: each machine's life shared by the time of the steps of the executions that used it, adding up to the whole", () => {
    const executions: CostedExecution[] = [
      { id: "a", steps: [step(0, 300)], machines: ["m1"] },
      { id: "b", steps: [step(400, 900)], machines: ["m1", "m2"] },
      { id: "c", steps: [], machines: [] },
    ];
    const machines = [
      { id: "m1", created: at(0), destroyed: at(1800) },
      // Alive: until now; used by b alone.
      { id: "m2", created: at(1800), destroyed: null },
    ];
    const costs = sessionCosts({ perHour: 0.1, currency: "USD", basis: "machine_lifetime", executions, machines }, now);
    expect(costs.get("a")!.seconds).toBeCloseTo(1800 * 0.25, 3);
    expect(costs.get("b")!.seconds).toBeCloseTo(1800 * 0.75 + 1800, 3);
    expect(costs.get("c")!.seconds).toBe(0);
    const total = [...costs.values()].reduce((s, c) => s + c.amount, 0);
    expect(total).toBeCloseTo((3600 * 0.1) / 3600, 6);
  });

  it("machine_lifetime: a machine no environment lists goes to every execution, equally when none has step time", () => {
    const executions: CostedExecution[] = [
      { id: "a", steps: [], machines: [] },
      { id: "b", steps: [], machines: [] },
    ];
    const machines = [{ id: "m1", created: at(0), destroyed: at(3600) }];
    const costs = sessionCosts({ perHour: 0.2, currency: "USD", basis: "machine_lifetime", executions, machines }, now);
    expect(costs.get("a")).toEqual({ amount: 0.1, currency: "USD", basis: "machine_lifetime", seconds: 1800 });
    expect(costs.get("b")).toEqual(costs.get("a"));
  });
});

describe("costTotals", () => {
  it("adds amounts per currency, never across", () => {
    const c = (amount: number, currency: string) => ({ amount, currency, basis: "step_time" as const, seconds: 1 });
    expect(costTotals([c(0.1, "USD"), c(0.2, "USD"), c(1, "EUR")])).toEqual([
      { currency: "USD", amount: 0.3 },
      { currency: "EUR", amount: 1 },
    ]);
  });
});
