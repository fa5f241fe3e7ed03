import { describe, expect, it } from "vitest";
import type { StoredMetric } from "../model/metrics.js";
import { compareExecutions, type ComparedRow } from "./comparison.js";

function row(id: string, metrics: StoredMetric[]): ComparedRow {
  return {
    id,
    session_id: `s-${id}`,
    provider: "local",
    service_type: "default",
    tool_id: "sysbench",
    workload_id: "cpu_10000",
    state: "completed",
    params: {},
    exec_env: { vms: [{ id: "local", ip: "127.0.0.1", platform: "debian_12", facts: { cpu_count: 2 } }] },
    metrics,
  };
}

/** One figure per value, as repetitions store them. */
function figures(name: string, better: "higher" | "lower" | undefined, values: number[], tags: Record<string, string> = {}): StoredMetric[] {
  return values.map((value, i) => ({ name, value, unit: "u", tags, ...(better ? { better } : {}), repetition: i + 1 }) as StoredMetric);
}

describe("comparing executions", () => {
  const fast = row("a", [...figures("eps", "higher", [100, 101, 99, 100.5, 99.5]), ...figures("latency", "lower", [10, 10.2, 9.8, 10.1, 9.9])]);
  const slow = row("b", [...figures("eps", "higher", [50, 50.5, 49.5, 50.2, 49.8]), ...figures("latency", "lower", [20, 20.4, 19.6, 20.1, 19.9])]);
  const same = row("c", [...figures("eps", "higher", [100.2, 99.8, 100.4, 99.6, 100]), ...figures("latency", "lower", [10.1, 9.9, 10, 10.05, 9.95])]);

  it("calls a significantly lower figure worse when higher is better, and a higher one worse when lower is better", () => {
    const c = compareExecutions([fast, slow, same], "a", 0.95);
    const eps = c.metrics.find((m) => m.name === "eps")!;
    expect(eps.figures.map((f) => f.verdict)).toEqual(["baseline", "worse", "no_difference"]);
    expect(eps.figures[1].ratio).toBeCloseTo(0.5, 2);
    expect(eps.figures[1].ratio_ci_low!).toBeLessThan(0.5);
    expect(eps.figures[1].ratio_ci_high!).toBeGreaterThan(0.5);
    expect(eps.figures[1].significant).toBe(true);
    expect(eps.figures[0]).toMatchObject({ n: 5, mean: 100, min: 99, max: 101, values: [100, 101, 99, 100.5, 99.5] });
    const latency = c.metrics.find((m) => m.name === "latency")!;
    expect(latency.figures.map((f) => f.verdict)).toEqual(["baseline", "worse", "no_difference"]);
    // From the slow side, the fast one is better on both.
    const back = compareExecutions([fast, slow], "b", 0.95);
    expect(back.metrics.map((m) => m.figures[0].verdict)).toEqual(["better", "better"]);
    expect(back.executions.map((e) => e.id)).toEqual(["a", "b"]);
    expect(back.executions[0].machines[0].facts).toEqual({ cpu_count: 2 });
  });

  it("tells metrics apart by their tags, and says unknown with a single value or a metric the baseline lacks", () => {
    const one = row("d", [
      ...figures("eps", "higher", [100], { threads: "1" }),
      ...figures("eps", "higher", [200], { threads: "2" }),
      ...figures("extra", undefined, [1, 2]),
    ]);
    const other = row("e", [...figures("eps", "higher", [90], { threads: "1" }), ...figures("eps", "higher", [150, 160], { threads: "2" })]);
    const c = compareExecutions([other, one], "e", 0.95);
    expect(c.metrics.map((m) => [m.name, m.tags])).toEqual([
      ["eps", { threads: "1" }],
      ["eps", { threads: "2" }],
      ["extra", {}],
    ]);
    expect(c.metrics[0].figures[1]).toMatchObject({ verdict: "unknown", p_value: null, ratio: 100 / 90 });
    expect(c.metrics[2].figures).toMatchObject([{ execution_id: "d", verdict: "unknown", ratio: null }]);
  });

  it("compares a name each execution measured under one tag set, whatever its tags: threads=2 against threads=1", () => {
    const two = row("two", figures("eps", "higher", [200, 202, 198], { threads: "2", mode: "cpu" }));
    const one = row("one", figures("eps", "higher", [100, 101, 99], { threads: "1", mode: "cpu" }));
    const c = compareExecutions([two, one], "two", 0.95);
    expect(c.metrics).toHaveLength(1);
    expect(c.metrics[0].tags).toEqual({ mode: "cpu" });
    expect(c.metrics[0].figures.map((f) => [f.tags, f.verdict])).toEqual([
      [{ threads: "2", mode: "cpu" }, "baseline"],
      [{ threads: "1", mode: "cpu" }, "worse"],
    ]);
  });

  it("says higher or lower where the metric does not say which is better", () => {
    const a = row("a", figures("count", undefined, [1, 1.1, 0.9]));
    const b = row("b", figures("count", undefined, [5, 5.1, 4.9]));
    expect(compareExecutions([a, b], "a", 0.95).metrics[0].figures[1].verdict).toBe("higher");
  });

  it("reads a significant difference smaller than min_difference as none, and keeps a larger one", () => {
    // 3% faster, every repetition: Welch's test is sure of it.
    const slightly = row("d", figures("eps", "higher", [103, 103.1, 102.9, 103.05, 102.95]));
    const base = row("e", figures("eps", "higher", [100, 100.1, 99.9, 100.05, 99.95]));
    const strict = compareExecutions([base, slightly], "e", 0.95).metrics[0].figures[1];
    expect(strict).toMatchObject({ verdict: "better", significant: true });
    const loose = compareExecutions([base, slightly], "e", 0.95, 0.05);
    expect(loose.min_difference).toBe(0.05);
    expect(loose.metrics[0].figures[1]).toMatchObject({ verdict: "no_difference", significant: false });
    expect(loose.metrics[0].figures[1].p_value!).toBeLessThan(0.05);
    expect(compareExecutions([base, slightly], "e", 0.95, 0.02).metrics[0].figures[1].verdict).toBe("better");
    expect(compareExecutions([fast, slow], "a", 0.95, 0.05).metrics.find((m) => m.name === "eps")!.figures[1].verdict).toBe("worse");
  });
});
