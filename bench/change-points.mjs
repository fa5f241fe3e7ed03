// How long checkNewPoint takes when a run is appended to a 1,000-run series (issue 25: under
// 50 ms): p50 over --runs calls, once with a change in the window it re-examines (every
// permutation of the test runs) and once with none (the test stops after a few). The reference
// is what it avoids: detectChangePoints over the whole series, p50 over --reference-runs calls.
// The series are generated from a fixed seed, 3% noise around 100, 10% steps at runs 400, 700
// and 990 (and none for the flat one), so every run measures the same numbers.
//
// Usage: node bench/change-points.mjs [--runs=50] [--reference-runs=5] [--length=1000]
import { checkNewPoint, detectChangePoints, seededRandom } from "@benchwright/engine";
import { figure } from "./harness/figures.mjs";
import { flags, main } from "./harness/script.mjs";
import { median, timeEach } from "./harness/timing.mjs";

const opts = flags({ runs: 50, referenceRuns: 5, length: 1000 });
const TARGET_MS = 50;

await main(async () => {
  const random = seededRandom(25);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random.float())) * Math.cos(2 * Math.PI * random.float());
  const series = (steps) => Array.from({ length: opts.length }, (_, i) => 100 * 1.1 ** steps.filter((s) => s <= i).length * (1 + 0.03 * normal()));
  const stepped = series([400, 700, opts.length - 10]);
  const flat = series([]);

  const found = checkNewPoint(stepped).change_points.map((c) => c.index);
  console.log(`checkNewPoint on the stepped series finds ${JSON.stringify(found)}; on the flat one ${checkNewPoint(flat).change_points.length} change(s)`);
  await timeEach(3, () => detectChangePoints(stepped)); // warm up the JIT
  const ref = median(await timeEach(opts.referenceRuns, () => detectChangePoints(stepped)));
  for (const [label, values] of [
    ["with a change in the window", stepped],
    ["flat", flat],
  ]) {
    await timeEach(5, () => checkNewPoint(values));
    figure({
      measure: `checkNewPoint, ${opts.length}-run series, ${label} (p50)`,
      now: median(await timeEach(opts.runs, () => checkNewPoint(values))),
      ref,
      unit: "ms",
      refLabel: `detectChangePoints over all ${opts.length} runs`,
      target: `< ${TARGET_MS} ms`,
      ok: (_ratio, now) => now < TARGET_MS,
    });
  }
});
