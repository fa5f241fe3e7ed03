/**
 * A measured figure as a person reads it: six significant digits at most (`5.00333`, not
 * `5.003333333333333`), whole numbers from 100000 on, integers as they are. `--json` keeps
 * the exact values: this is only for tables.
 */
export function figure(value: number): string {
  if (!Number.isFinite(value) || Number.isInteger(value)) return String(value);
  if (Math.abs(value) >= 1e5) return String(Math.round(value));
  return String(Number(value.toPrecision(6)));
}

/** A deviation or an interval's half-width: three significant digits say all it can. */
export function spread(value: number): string {
  if (!Number.isFinite(value) || Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(3)));
}

/** A comparison's verdict in words. */
const VERDICTS: Record<string, string> = {
  baseline: "baseline",
  better: "better",
  worse: "worse",
  higher: "higher",
  lower: "lower",
  no_difference: "no difference",
  unknown: "unknown",
};

export function verdictText(verdict: string): string {
  return VERDICTS[verdict] ?? verdict.replaceAll("_", " ");
}
