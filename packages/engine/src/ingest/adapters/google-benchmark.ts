import { JsonReader, type Measure, parseJsonFile, pointer } from "./measures.js";

/**
 * Google Benchmark's `--benchmark_format=json` (or `--benchmark_out`): each benchmark's
 * iteration runs (one per repetition; the aggregates it adds, mean and stddev, are left out:
 * they summarise the same runs) are one metric's sample of `real_time`, in its `time_unit`,
 * lower is better. A run that reports an error is a problem.
 */
export function googleBenchmark(text: string): Measure[] {
  const r = new JsonReader();
  const doc = r.object(parseJsonFile(text), "");
  const benchmarks = doc && r.array(doc.benchmarks, "/benchmarks");
  const byName = new Map<string, Measure & { values: number[] }>();
  for (const [i, item] of (benchmarks ?? []).entries()) {
    const at = pointer("benchmarks", i);
    const b = r.object(item, at);
    if (!b || b.run_type === "aggregate") continue;
    if (b.error_occurred === true) {
      r.fail(`${at}/error_occurred`, `the benchmark reported an error: ${String(b.error_message ?? "")}`);
      continue;
    }
    const name = r.string(b.run_name ?? b.name, `${at}/${b.run_name === undefined ? "name" : "run_name"}`);
    const time = r.number(b.real_time, `${at}/real_time`);
    const unit = r.string(b.time_unit ?? "ns", `${at}/time_unit`);
    if (name === undefined || time === undefined || unit === undefined) continue;
    const known = byName.get(name);
    if (known && known.unit !== unit) r.fail(`${at}/time_unit`, `differs from an earlier run of ${name} (${known.unit})`);
    else if (known) known.values.push(time);
    else byName.set(name, { metric: name, tags: {}, unit, better: "lower", values: [time] });
  }
  if (benchmarks && byName.size === 0 && r.problems.length === 0) r.fail("/benchmarks", "holds no benchmark run");
  r.done();
  return [...byName.values()];
}
