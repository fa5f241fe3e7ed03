import { describe, expect, it } from "vitest";
import type { PlanBody } from "../model/plans.js";
import { gaussian, seededRandom } from "../results/seeded-random.js";
import { type CellHistory, expectedFromHistory } from "./plan-history.js";

// A dry run of a precision plan: the counts and cost its cells' histories expect, or that a cell has none.

const plan = {
  targets: [
    { label: "lottery", provider: "lab", service: "a", class: "existing-vm", inline: false },
    { label: "new", provider: "lab", service: "b", class: "existing-vm", inline: false },
  ],
  benchmarks: [{ tool: "sysbench", workload: "cpu", params: { threads: [1, 2] }, zip: false, cells: 2 }],
  precision: { relative_half_width: 0.02 },
  budget: { wall_seconds: 3600 },
} as unknown as PlanBody;

/** 12 past machines of a type whose machines differ by 5% and whose runs by 1%, 3 runs each. */
function lotteryHistory(): CellHistory {
  const random = seededRandom(7);
  const groups = Array.from({ length: 12 }, () => {
    const mu = 100 * (1 + 0.05 * gaussian(random));
    return Array.from({ length: 3 }, () => mu * (1 + 0.01 * gaussian(random)));
  });
  return { metric: "events_per_second", points: 12, groups, costs: { machine: 60, run: 10 } };
}

describe("a precision plan's dry run from its cells' history", () => {
  it("expects machines × runs and their cost where the series has history, and says where it has none", async () => {
    const expected = await expectedFromHistory(plan, async (target) => (target.label === "lottery" ? lotteryHistory() : null));
    expect(expected).toHaveLength(4);
    const [one, two, none] = expected;
    expect(one).toMatchObject({ target: "lottery", params: { threads: 1 }, metric: "events_per_second", history_points: 12, unit: "wall_seconds" });
    expect(two.params).toEqual({ threads: 2 });
    // Machines differ far more than runs: many machines, few runs on each.
    expect(one.machines!).toBeGreaterThan(one.runs!);
    expect(one.cost).toBeCloseTo(one.machines! * (60 + one.runs! * 10), 9);
    expect(one.expected_relative_half_width!).toBeLessThanOrEqual(0.02);
    expect(one.note).toMatch(/^from 12 past points on 12 machines: \d+ machines × \d+ runs are expected to reach ±/);
    expect(none).toMatchObject({ target: "new", history_points: 0, machines: null, runs: null, cost: null, metric: null });
    expect(none.note).toMatch(/^no history/);
  });

  it("says when the history cannot tell two levels apart, or the budget falls short", async () => {
    const single: CellHistory = { metric: "m", points: 4, groups: [[1, 2, 3]], costs: { machine: 1, run: 1 } };
    const [one] = await expectedFromHistory(plan, async () => single);
    expect(one).toMatchObject({ machines: null, history_points: 4 });
    expect(one.note).toMatch(/measured one machine/);
    const poor = { ...plan, budget: { wall_seconds: 200 } } as PlanBody;
    const [short] = await expectedFromHistory(poor, async () => lotteryHistory());
    expect(short.cost!).toBeLessThanOrEqual(200);
    expect(short.note).toMatch(/short of the precision asked for/);
  });

  it("answers nothing for a plan without a precision", async () => {
    expect(await expectedFromHistory({ ...plan, precision: undefined } as PlanBody, async () => lotteryHistory())).toEqual([]);
  });
});
