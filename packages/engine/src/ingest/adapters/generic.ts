import { JsonReader, type Measure, parseJsonFile, pointer } from "./measures.js";

/**
 * The generic format, for any other harness: a JSON array (or `{results: [...]}`) of
 * `{metric, value | values, unit, better, tags?}`: `value` is one measurement, `values` a
 * sample (repetitions); `better` is `higher` or `lower`; `tags` a map of strings. Items of the
 * same metric and tags are one sample.
 */
export function generic(text: string): Measure[] {
  const r = new JsonReader();
  const doc = parseJsonFile(text);
  const wrapped = !Array.isArray(doc);
  const items = wrapped ? r.array(r.object(doc, "")?.results, "/results") : doc;
  const base = wrapped ? "/results" : "";
  const byKey = new Map<string, Measure & { values: number[] }>();
  for (const [i, raw] of (items ?? []).entries()) {
    const at = `${base}${pointer(i)}`;
    const item = r.object(raw, at);
    if (!item) continue;
    const metric = r.string(item.metric, `${at}/metric`);
    const unit = item.unit === undefined ? "" : r.string(item.unit, `${at}/unit`);
    const better = item.better === "higher" || item.better === "lower" ? item.better : r.fail(`${at}/better`, "must be higher or lower");
    let values: number[] | undefined;
    if (item.values !== undefined) values = r.numbers(item.values, `${at}/values`);
    else if (item.value !== undefined) values = [r.number(item.value, `${at}/value`)].filter((v) => v !== undefined);
    else r.fail(`${at}/value`, "is required (or values)");
    const tags = item.tags === undefined ? {} : r.object(item.tags, `${at}/tags`);
    for (const [k, v] of Object.entries(tags ?? {})) if (typeof v !== "string") r.fail(`${at}/tags${pointer(k)}`, "must be a string");
    if (metric === undefined || unit === undefined || !better || !values?.length || !tags) continue;
    const key = JSON.stringify([metric, Object.entries(tags).sort()]);
    const known = byKey.get(key);
    if (known) known.values.push(...values);
    else byKey.set(key, { metric, tags: tags as Record<string, string>, unit, better, values: [...values] });
  }
  if (items?.length === 0) r.fail(base || "/", "holds no result");
  r.done();
  return [...byKey.values()];
}
