import { JsonReader, type Measure, parseJsonFile, pointer } from "./measures.js";

/**
 * pytest-benchmark's `--benchmark-json`: each test is a metric (its `fullname`, parametrised
 * ones included), in seconds, lower is better; its sample is the rounds' times when the file
 * keeps them (`stats.data`, with `--benchmark-save-data`), else the plugin's own summary
 * (mean, stddev and rounds).
 */
export function pytestBenchmark(text: string): Measure[] {
  const r = new JsonReader();
  const doc = r.object(parseJsonFile(text), "");
  const benchmarks = doc && r.array(doc.benchmarks, "/benchmarks");
  const measures: Measure[] = [];
  for (const [i, item] of (benchmarks ?? []).entries()) {
    const at = pointer("benchmarks", i);
    const b = r.object(item, at);
    if (!b) continue;
    const name = r.string(b.fullname ?? b.name, `${at}/${b.fullname === undefined ? "name" : "fullname"}`);
    const stats = r.object(b.stats, `${at}/stats`);
    if (name === undefined || !stats) continue;
    const base = { metric: name, tags: {}, unit: "s", better: "lower" as const };
    if (stats.data !== undefined) {
      const values = r.numbers(stats.data, `${at}/stats/data`);
      if (values) measures.push({ ...base, values });
      continue;
    }
    const mean = r.number(stats.mean, `${at}/stats/mean`);
    const stddev = r.number(stats.stddev, `${at}/stats/stddev`);
    const rounds = r.number(stats.rounds, `${at}/stats/rounds`);
    if (rounds !== undefined && (!Number.isInteger(rounds) || rounds < 1)) r.fail(`${at}/stats/rounds`, "must be a whole number from 1");
    else if (mean !== undefined && stddev !== undefined && rounds !== undefined) measures.push({ ...base, summary: { n: rounds, mean, stddev } });
  }
  if (benchmarks?.length === 0) r.fail("/benchmarks", "holds no benchmark");
  r.done();
  return measures;
}
