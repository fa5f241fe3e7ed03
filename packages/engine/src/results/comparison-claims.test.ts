import { describe, expect, it } from "vitest";
import type { StoredMetric } from "../model/metrics.js";
import { compareExecutions, type ComparedRow } from "./comparison.js";

/** An execution whose `eps` was measured on 4 machines, 3 runs each: machine means spread `spread` (relative) around `mean`. */
function side(id: string, serviceType: string, mean: number, spread: number): ComparedRow {
  const offsets = [-1.5, -0.5, 0.5, 1.5];
  const metrics = offsets.flatMap((o, vm) =>
    [-0.001, 0, 0.001].map(
      (run, i) => ({ name: "eps", unit: "u", better: "higher", value: mean * (1 + o * spread + run), vm: `vm${vm}`, repetition: i + 1 }) as StoredMetric,
    ),
  );
  return {
    id,
    session_id: `s-${id}`,
    provider: "aws",
    service_type: serviceType,
    tool_id: "sysbench",
    workload_id: "cpu",
    state: "completed",
    params: {},
    exec_env: { vms: [] },
    metrics,
  };
}

describe("comparing executions with a margin", () => {
  const rows = [
    side("base", "m6i.large", 100, 0.002),
    side("better", "c6a.large", 110, 0.002),
    side("worse", "t3.large", 90, 0.002),
    side("equivalent", "m7i.large", 100.2, 0.002),
    side("not-worse", "c7a.large", 103, 0.012),
    side("not-better", "m5.large", 97, 0.012),
    side("unsure", "t2.large", 100, 0.05),
  ];

  it("gives each of the five verdicts, and inconclusive, each with its sentence and adjusted p-value", () => {
    const c = compareExecutions(rows, "base", 0.95, 0, { margin: 0.02 });
    expect(c).toMatchObject({ margin: 0.02, multiplicity: "holm" });
    const figures = c.metrics[0].figures;
    expect(figures[0].claim).toBeUndefined();
    expect(figures.slice(1).map((f) => f.claim?.verdict)).toEqual(["better", "worse", "equivalent", "not_worse", "not_better", "inconclusive"]);
    for (const f of figures.slice(1)) expect(f.claim!.p_adjusted).toBeGreaterThanOrEqual(f.claim!.p_value);
    expect(figures[1].claim!.sentence).toMatch(
      /^aws\/c6a\.large is 10\.0% better than aws\/m6i\.large on eps \(higher is better; 95% CI \d+\.\d% to \d+\.\d%, 4 machines × 3 runs each; instances of aws\/m6i\.large differ by 0\.\d% between machines\)\.$/,
    );
    expect(figures[6].claim!.settle_n).toBeGreaterThan(4);
    expect(figures[6].claim!.sentence).toMatch(/machines each would likely settle it/);
  });

  it("shows each figure's variability between and within machines", () => {
    const c = compareExecutions(rows, "base", 0.95);
    const unsure = c.metrics[0].figures[6].variability!;
    expect(unsure).toMatchObject({ machines: 4, runs: 12, interval_from: "machines" });
    // Machine means at ±0.5 and ±1.5 × 5%: their sd is 1.29 × 5% (less the runs' share, which is tiny).
    expect(unsure.between_cv!).toBeCloseTo(0.0645, 3);
    expect(unsure.within_cv!).toBeCloseTo(0.001, 3);
    expect(unsure).toMatchObject({ interval_method: "t", warmup_runs: 0, outliers: 0, outlier_rule: "modified_z_above_3.5" });
    // No margin, no claims: the comparison is as it was.
    expect(c.margin).toBeUndefined();
    expect(c.metrics[0].figures[1].claim).toBeUndefined();
  });

  it("takes min_difference as the margin when none is given", () => {
    const c = compareExecutions(rows, "base", 0.95, 0.02);
    expect(c.margin).toBe(0.02);
    expect(c.metrics[0].figures[3].claim?.verdict).toBe("equivalent");
  });

  it("flags warm-up runs and outliers, and bootstraps the interval of a skewed sample", () => {
    const runs = (values: number[]) => values.map((value, i) => ({ name: "eps", unit: "u", better: "higher", value, repetition: i + 1 }) as StoredMetric);
    const base = { ...rows[0], metrics: runs([100, 100.2, 99.8, 100.1, 99.9, 100, 100.1, 99.9]) };
    const warm = { ...rows[1], metrics: runs([140, 125, 112, 100, 100.2, 99.8, 100.1, 99.9, 100, 100.1]) };
    const skewed = { ...rows[2], metrics: runs([1, 1.1, 0.9, 1.05, 0.95, 1, 1.02, 6]) };
    const [, w, s] = compareExecutions([base, warm, skewed], "base", 0.95).metrics[0].figures;
    // Its warm-up also skews it: flagged, not dropped, so its interval is bootstrapped.
    expect(w.variability).toMatchObject({ warmup_runs: 3, interval_method: "bootstrap" });
    expect(s.variability).toMatchObject({ outliers: 1, interval_method: "bootstrap" });
    expect(s.variability!.skewness).toBeGreaterThan(1);
    // The bootstrap's interval is longer on the side of the long tail.
    expect(s.variability!.ci_high - s.variability!.mean).toBeGreaterThan(s.variability!.mean - s.variability!.ci_low);
  });

  it("leaves out each machine's warm-up runs when asked: a count, or as many as MSER finds", () => {
    const runs = (values: number[]) =>
      values.map((value, i) => ({ name: "eps", unit: "u", better: "higher", value, vm: "vm0", repetition: i + 1 }) as StoredMetric);
    const base = { ...rows[0], metrics: runs([100, 100.2, 99.8, 100.1, 99.9, 100, 100.1, 99.9]) };
    const warm = { ...rows[1], metrics: runs([140, 125, 112, 100, 100.2, 99.8, 100.1, 99.9, 100, 100.1]) };
    const auto = compareExecutions([base, warm], "base", 0.95, 0, { warmup: "auto" });
    expect(auto.warmup).toBe("auto");
    const figure = auto.metrics[0].figures[1];
    expect(figure.variability).toMatchObject({ warmup_discarded: 3, warmup_runs: 0, runs: 7 });
    expect(figure.values).toEqual([100, 100.2, 99.8, 100.1, 99.9, 100, 100.1]);
    expect(figure.mean).toBeCloseTo(100.01, 2);
    const two = compareExecutions([base, warm], "base", 0.95, 0, { warmup: 2 }).metrics[0].figures[1];
    expect(two.variability!.warmup_discarded).toBe(2);
    expect(two.n).toBe(8);
    // Not asked: nothing left out, the warm-up flagged.
    expect(compareExecutions([base, warm], "base", 0.95).metrics[0].figures[1].variability).toMatchObject({ warmup_discarded: 0, warmup_runs: 3 });
  });
});
