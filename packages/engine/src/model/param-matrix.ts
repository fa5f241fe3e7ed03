import type { components } from "@benchwright/contract";

type ParamValue = components["schemas"]["ParamValue"];
/** A benchmark's params in a plan: each a value, or a list of values to cross (or pair). */
export type PlanParams = Record<string, ParamValue | ParamValue[]>;

/** Something wrong with a benchmark's lists, at a path below the benchmark (`params/threads`, `zip`). */
export interface MatrixProblem {
  at: string;
  message: string;
}

/**
 * How many parameter sets a benchmark's params make: the lists crossed (their lengths
 * multiplied), or with `zip` paired element by element (then they must be of one length).
 * An empty list leaves no cell: a matrix with none is a mistake, not a plan that does nothing.
 */
export function matrixSize(params: PlanParams, zip: boolean): { cells: number; problems: MatrixProblem[] } {
  const lists = Object.entries(params).filter((entry): entry is [string, ParamValue[]] => Array.isArray(entry[1]));
  const problems: MatrixProblem[] = lists
    .filter(([, values]) => values.length === 0)
    .map(([name]) => ({ at: `params/${name}`, message: "is an empty list: the matrix has no cell" }));
  if (problems.length) return { cells: 0, problems };
  if (!zip) return { cells: lists.reduce((n, [, values]) => n * values.length, 1), problems };
  const lengths = new Set(lists.map(([, values]) => values.length));
  if (lengths.size > 1) {
    const said = lists.map(([name, values]) => `${name}: ${values.length}`).join(", ");
    return { cells: 0, problems: [{ at: "zip", message: `pairs lists of unequal lengths (${said}): give them one length, or cross them` }] };
  }
  return { cells: lists[0]?.[1].length ?? 1, problems };
}

/**
 * Every parameter set of a benchmark, in order: the last list varies fastest when crossed, as
 * nested loops written in the params' order would. Check `matrixSize` first: a matrix may be
 * too large to spell out.
 */
export function expandCells(params: PlanParams, zip: boolean): Array<Record<string, ParamValue>> {
  const entries = Object.entries(params);
  const fixed = Object.fromEntries(entries.filter(([, v]) => !Array.isArray(v))) as Record<string, ParamValue>;
  const lists = entries.filter((entry): entry is [string, ParamValue[]] => Array.isArray(entry[1]));
  if (zip) {
    const length = lists[0]?.[1].length ?? 1;
    return Array.from({ length }, (_, i) => ({ ...fixed, ...Object.fromEntries(lists.map(([name, values]) => [name, values[i]])) }));
  }
  return lists.reduce<Array<Record<string, ParamValue>>>(
    (cells, [name, values]) => cells.flatMap((cell) => values.map((value) => ({ ...cell, [name]: value }))),
    [{ ...fixed }],
  );
}
