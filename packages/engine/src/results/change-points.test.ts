import { describe, expect, it } from "vitest";
import { CHANGE_POINT_DEFAULTS, checkNewPoint, detectChangePoints, direction } from "./change-points.js";
import { type SeededRandom, seededRandom } from "./seeded-random.js";

// Every series here is generated from a fixed seed (SERIES_SEED, or the one a test names): the
// same numbers on every run, so a pass or a failure is the same everywhere.
const SERIES_SEED = 25;

/** Standard normal draws by Box-Muller, from a seeded generator. */
function normal(random: SeededRandom): number {
  const u = 1 - random.float(); // (0, 1]: the log stays finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.float());
}

/** `length` runs around the levels given as [from index, mean], with `noise` relative standard deviation. */
function series(random: SeededRandom, length: number, levels: Array<[number, number]>, noise = 0.03): number[] {
  return Array.from({ length }, (_, i) => {
    const mean = levels.filter(([from]) => from <= i).at(-1)![1];
    return mean * (1 + noise * normal(random));
  });
}

describe("change points of a metric over time (E-divisive with means)", () => {
  it(`finds a 10% step at point 30 of 60 points with 3% noise at 30 ± 1, with the right direction (issue 25, acceptance 1; series from seed ${SERIES_SEED})`, () => {
    const values = series(seededRandom(SERIES_SEED), 60, [
      [0, 100],
      [30, 110],
    ]);
    const found = detectChangePoints(values);
    expect(found).toHaveLength(1);
    const [change] = found;
    expect(Math.abs(change.index - 30)).toBeLessThanOrEqual(1);
    expect(change.p_value).toBeLessThanOrEqual(CHANGE_POINT_DEFAULTS.significance);
    expect(change.before.n + change.after.n).toBe(60);
    expect(change.size).toBeGreaterThan(0.07);
    expect(change.size).toBeLessThan(0.13);
    expect(change.size_ci_low!).toBeLessThan(change.size);
    expect(change.size_ci_low!).toBeGreaterThan(0);
    expect(change.size_ci_high!).toBeGreaterThan(change.size);
    // 10% more: better for a throughput, worse for a latency.
    expect(direction(change.size, "higher")).toBe("improvement");
    expect(direction(change.size, "lower")).toBe("regression");
  });

  it(`reports at most 5 changes over 100 flat series with the same noise (issue 25, acceptance 1; series from seed ${SERIES_SEED})`, () => {
    const random = seededRandom(SERIES_SEED);
    let reported = 0;
    for (let i = 0; i < 100; i++) reported += detectChangePoints(series(random, 60, [[0, 100]])).length;
    expect(reported).toBeLessThanOrEqual(5);
  });

  it("calls a 10% drop a regression where higher is better and an improvement where lower is", () => {
    const values = series(seededRandom(SERIES_SEED + 1), 60, [
      [0, 100],
      [30, 90],
    ]);
    const [change] = detectChangePoints(values);
    expect(Math.abs(change.index - 30)).toBeLessThanOrEqual(1);
    expect(change.size).toBeLessThan(0);
    expect(change.size_ci_high!).toBeLessThan(0);
    expect(direction(change.size, "higher")).toBe("regression");
    expect(direction(change.size, "lower")).toBe("improvement");
  });

  it("finds two steps, each told against its neighbours", () => {
    const values = series(seededRandom(SERIES_SEED + 2), 90, [
      [0, 100],
      [30, 110],
      [60, 95],
    ]);
    const found = detectChangePoints(values);
    expect(found.map((c) => c.index)).toHaveLength(2);
    expect(Math.abs(found[0].index - 30)).toBeLessThanOrEqual(1);
    expect(Math.abs(found[1].index - 60)).toBeLessThanOrEqual(1);
    // The second change's "before" is the runs between the two changes, not the whole start.
    expect(found[1].before.n).toBe(found[1].index - found[0].index);
    expect(found[1].before.mean).toBeCloseTo(found[0].after.mean, 10);
    expect(found[0].size).toBeGreaterThan(0);
    expect(found[1].size).toBeLessThan(0);
  });

  it("reports nothing for a series shorter than two minimum segments, however clear its step, without testing it", () => {
    const min = CHANGE_POINT_DEFAULTS.minSegment;
    let draws = 0;
    const inner = seededRandom(SERIES_SEED);
    const counting: SeededRandom = {
      int: (below) => {
        draws++;
        return inner.int(below);
      },
      float: () => inner.float(),
    };
    const short = [...Array(min).fill(100), ...Array(min - 1).fill(200)];
    expect(detectChangePoints(short, { random: counting })).toEqual([]);
    expect(detectChangePoints([], { random: counting })).toEqual([]);
    expect(draws).toBe(0);
    // The same step with enough runs on each side.
    expect(detectChangePoints([...Array(12).fill(100), ...Array(12).fill(200)]).map((c) => c.index)).toEqual([12]);
  });

  it("reports nothing for a constant series, and a step between two constant levels at its place", () => {
    expect(detectChangePoints(Array(40).fill(7))).toEqual([]);
    const [change] = detectChangePoints([...Array(20).fill(10), ...Array(20).fill(12)]);
    expect(change).toMatchObject({ index: 20, before: { mean: 10, n: 20 }, after: { mean: 12, n: 20 } });
    expect(change.size).toBeCloseTo(0.2, 12);
    // The smallest p-value 199 shuffles can give: none of them scored as high.
    expect(change.p_value).toBeCloseTo(1 / 200, 12);
  });

  it("gives the same answer for the same series, and takes its shuffles from the generator passed in", () => {
    const values = series(seededRandom(SERIES_SEED + 3), 60, [
      [0, 100],
      [30, 104],
    ]);
    expect(detectChangePoints(values)).toEqual(detectChangePoints(values));
    let draws = 0;
    const inner = seededRandom(99);
    const counting: SeededRandom = {
      int: (below) => {
        draws++;
        return inner.int(below);
      },
      float: () => inner.float(),
    };
    detectChangePoints(values, { random: counting });
    expect(draws).toBeGreaterThan(0);
  });

  it("refuses values and options it cannot use", () => {
    expect(() => detectChangePoints([1, 2, Number.NaN])).toThrow(RangeError);
    expect(() => detectChangePoints([1, 2, 3], { significance: 0 })).toThrow(RangeError);
    expect(() => detectChangePoints([1, 2, 3], { permutations: 0.5 })).toThrow(RangeError);
    expect(() => detectChangePoints([1, 2, 3], { minSegment: 1 })).toThrow(RangeError);
    expect(() => checkNewPoint([1, 2, 3], { window: 1 })).toThrow(RangeError);
    expect(() => direction(Number.NaN, "higher")).toThrow(RangeError);
  });

  it("checks the latest window when a run is appended, with indices in the whole series", () => {
    const random = seededRandom(SERIES_SEED + 4);
    const flat = series(random, 1000, [[0, 100]]);
    expect(checkNewPoint(flat)).toEqual({ window_start: 950, change_points: [] });
    // A 10% step at run 990: nothing before it, found once ten runs of the new level are in.
    const stepped = [...flat.slice(0, 990), ...series(random, 10, [[0, 110]])];
    expect(checkNewPoint(stepped.slice(0, 990)).change_points).toEqual([]);
    const check = checkNewPoint(stepped);
    expect(check.window_start).toBe(950);
    expect(check.change_points).toHaveLength(1);
    expect(Math.abs(check.change_points[0].index - 990)).toBeLessThanOrEqual(1);
    expect(direction(check.change_points[0].size, "lower")).toBe("regression");
    // Shorter than the window: the whole series.
    expect(checkNewPoint(stepped.slice(980)).window_start).toBe(0);
  });

  it("says what a direction is for each sign", () => {
    expect(direction(0.05, "higher")).toBe("improvement");
    expect(direction(-0.05, "higher")).toBe("regression");
    expect(direction(0.05, "lower")).toBe("regression");
    expect(direction(-0.05, "lower")).toBe("improvement");
    expect(direction(0, "higher")).toBe("improvement");
    expect(direction(0, "lower")).toBe("improvement");
  });
});
