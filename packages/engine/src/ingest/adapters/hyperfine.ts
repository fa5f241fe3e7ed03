import { JsonReader, type Measure, parseJsonFile, pointer } from "./measures.js";

/**
 * hyperfine's `--export-json`: `{results: [{command, times: [seconds...], mean, stddev...}]}`.
 * Each command is a metric (its name, or the command line), in seconds, lower is better, its
 * sample the times of its runs; a parameter scan's values are its tags.
 */
export function hyperfine(text: string): Measure[] {
  const r = new JsonReader();
  const doc = r.object(parseJsonFile(text), "");
  const results = doc && r.array(doc.results, "/results");
  const measures: Measure[] = [];
  for (const [i, item] of (results ?? []).entries()) {
    const at = pointer("results", i);
    const result = r.object(item, at);
    if (!result) continue;
    const command = r.string(result.command, `${at}/command`);
    const times = r.numbers(result.times, `${at}/times`);
    const parameters = result.parameters === undefined ? {} : r.object(result.parameters, `${at}/parameters`);
    if (command === undefined || !times || !parameters) continue;
    const tags = Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, String(v)]));
    measures.push({ metric: command, tags, unit: "s", better: "lower", values: times });
  }
  if (results?.length === 0) r.fail("/results", "holds no result");
  r.done();
  return measures;
}
