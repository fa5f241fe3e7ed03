import { describe, expect, it } from "vitest";
import { decideRound, pilotOf, reachedOf, type RoundsSoFar } from "./precision-rounds.js";

/** m machines of n runs: machine i's mean is 100·(1 + spread·(i − (m−1)/2)/m), each run up to ± noise around it (a fixed scatter). */
function machines(m: number, n: number, spread: number, noise: number): number[][] {
  return Array.from({ length: m }, (_, i) => {
    const mean = 100 * (1 + (spread * (i - (m - 1) / 2)) / m);
    return Array.from({ length: n }, (_, j) => mean * (1 + noise * Math.sin(i * 7.3 + j * 3.1 + 1)));
  });
}

const pilot = pilotOf({ relative_half_width: 0.02 }, undefined, "00000000-0000-4000-8000-000000000001");
const so = (groups: number[][], over: Partial<RoundsSoFar> = {}): RoundsSoFar => ({
  groups,
  costs: { machine: 10, run: 1 },
  spent: 3 * 10 + 9,
  machineLimit: null,
  ...over,
});

describe("a precision cell's rounds", () => {
  it("stops once the interval is as narrow as asked", () => {
    const d = decideRound({ relative_half_width: 0.02 }, undefined, pilot, so(machines(3, 3, 0.001, 0.001)));
    expect(d).toMatchObject({ stop: "precision_reached" });
    expect(reachedOf(machines(3, 3, 0.001, 0.001))).toBeLessThan(0.02);
  });

  it("adds machines where machines differ, and runs where runs are noisy", () => {
    // Machines differ by ~10%: only more machines narrow the interval.
    const uneven = decideRound({ relative_half_width: 0.02 }, undefined, pilot, so(machines(3, 3, 0.3, 0.001)));
    expect(uneven).toMatchObject({ round: { added: "machines", first_machine: 3 } });
    // Equal machines, noisy runs, a dear machine: more runs on the ones there are.
    const noisy = decideRound({ relative_half_width: 0.02 }, undefined, pilot, so(machines(3, 3, 0, 0.08), { costs: { machine: 100, run: 1 } }));
    expect(noisy).toMatchObject({ round: { added: "runs", machines: 3, first_machine: 0 } });
  });

  it("stops when the budget cannot pay one more machine or run, and says what was spent", () => {
    const d = decideRound({ relative_half_width: 0.02 }, { machine_hours: 40 }, pilot, so(machines(3, 3, 0.3, 0.001), { spent: 39 }));
    expect(d).toMatchObject({ stop: "budget_spent" });
    expect((d as { reason: string }).reason).toContain("39.0000 machine-hours of 40.0000 machine-hours spent");
  });

  it("stops when a pool of hosts has no machine left and runs cannot reach the precision", () => {
    const d = decideRound({ relative_half_width: 0.02 }, undefined, pilot, so(machines(3, 3, 0.3, 0.001), { machineLimit: 3 }));
    expect(d).toMatchObject({ stop: "machines_exhausted" });
  });

  it("shrinks a round to what the budget still pays for", () => {
    const d = decideRound({ relative_half_width: 0.005 }, { money: 100 }, pilot, so(machines(3, 3, 0.3, 0.001), { spent: 60 }));
    // A new machine with its runs costs 10 + n·1: at most 40 / that many fit.
    expect(d).toMatchObject({ round: { added: "machines" } });
    const round = (d as { round: { machines: number; runs: number } }).round;
    expect(round.machines * (10 + round.runs)).toBeLessThanOrEqual(40);
  });
});
