// How much a precision target saves over a fixed design (issue 37): the cost of reaching a ±2%
// interval of a machine type's mean by Kalibera & Jones's allocation (a pilot of 3 machines × 3
// runs, its variance components, the cheapest machines × runs that reach ±2%; then again from all
// the figures so far, until the interval is within ±2%), against the
// fixed 5 machines × 5 runs, over --experiments simulated experiments per profile (seeded: every
// run prints the same figures). Costs are in minutes: a machine --machine-minutes (provisioning,
// installing), a run --run-minutes. The reference is the fixed design's cost; each line also says
// how often each design's interval actually came within ±2%.
//
// Usage: node bench/allocation.mjs [--experiments=300] [--machine-minutes=10] [--run-minutes=1]
import { allocate, gaussian, nestedSummary, nextStep, seededRandom } from "@benchwright/engine";
import { figure } from "./harness/figures.mjs";
import { flags, main } from "./harness/script.mjs";

const opts = flags({ experiments: 300, machineMinutes: 10, runMinutes: 1 });
const H = 0.02;
const PROFILES = [
  { label: "machines differ 3%, runs 1%", between: 3, within: 1 },
  { label: "machines differ 0.5%, runs 3%", between: 0.5, within: 3 },
  { label: "machines differ 1%, runs 1%", between: 1, within: 1 },
];

await main(async () => {
  const random = seededRandom(37);
  const costs = { machine: opts.machineMinutes, run: opts.runMinutes };
  const costOf = (m, n) => m * (costs.machine + n * costs.run);
  for (const p of PROFILES) {
    const machine = () => {
      const mu = 100 + p.between * gaussian(random);
      return (n) => Array.from({ length: n }, () => mu + p.within * gaussian(random));
    };
    const reached = (groups) => {
      const s = nestedSummary(groups);
      return (s.ci_high - s.ci_low) / 2 <= H * Math.abs(s.mean);
    };
    let fixedReached = 0;
    let allocatedReached = 0;
    const spent = [];
    for (let i = 0; i < opts.experiments; i++) {
      if (reached(Array.from({ length: 5 }, () => machine()(5)))) fixedReached++;
      // The pilot, then rounds: re-estimate, allocate, grow to the counts (never shrink), until ±2% is reached.
      const machines = Array.from({ length: 3 }, () => machine());
      const groups = machines.map((run) => run(3));
      for (let round = 0; round < 10 && !reached(groups); round++) {
        const s = nestedSummary(groups);
        const a = allocate({ components: { between: s.between_variance, within: s.within_variance, mean: s.mean }, costs, relativeHalfWidth: H });
        const m = Math.max(groups.length, a.machines);
        const n = Math.max(groups[0].length, a.runs);
        if (m === groups.length && n === groups[0].length) {
          const step = nextStep({ between: s.between_variance, within: s.within_variance, mean: s.mean }, costs, m, n);
          if (step === "machine") machines.push(machine());
          else for (const [j, g] of groups.entries()) g.push(...machines[j](1));
        }
        while (machines.length < m) machines.push(machine());
        machines.forEach((run, j) => {
          groups[j] ??= [];
          groups[j].push(...run(Math.max(n, groups[0].length) - groups[j].length));
        });
      }
      if (reached(groups)) allocatedReached++;
      spent.push(costOf(groups.length, groups[0].length));
    }
    spent.sort((x, y) => x - y);
    const median = spent[Math.floor(spent.length / 2)];
    const share = (k) => `${Math.round((100 * k) / opts.experiments)}%`;
    figure({
      measure: `±2% by allocation, ${p.label} (median cost; within ±2% in ${share(allocatedReached)} of experiments)`,
      now: median,
      ref: costOf(5, 5),
      unit: "min",
      refLabel: `fixed 5 machines × 5 runs, within ±2% in ${share(fixedReached)}`,
    });
  }
});
