import { type FactChange, POINT_FACTS, type SeriesPointRow } from "../model/series.js";

/**
 * The machines' facts whose values differ between the points before a change and those after
 * it: each fact's distinct values on each side (a point that does not know a fact adds none).
 */
export function factsChanged(before: readonly SeriesPointRow[], after: readonly SeriesPointRow[]): FactChange[] {
  const valuesOf = (points: readonly SeriesPointRow[], fact: (typeof POINT_FACTS)[number]) =>
    [...new Set(points.map((p) => p.facts?.[fact]).filter((v): v is string => typeof v === "string" && v !== ""))].sort();
  return POINT_FACTS.flatMap((fact) => {
    const b = valuesOf(before, fact);
    const a = valuesOf(after, fact);
    const same = a.length === b.length && a.every((v, i) => v === b[i]);
    return same ? [] : [{ fact, before: b, after: a }];
  });
}
