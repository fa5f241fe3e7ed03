import { createRequire } from "node:module";
import type { ParseError } from "jsonc-parser";

/**
 * What an adapter reads from a harness's output: one sample per metric (its name and tags), in
 * the harness's own units, and where in the file each problem was found.
 */
export interface Measure {
  metric: string;
  tags: Record<string, string>;
  unit: string;
  better: "higher" | "lower";
  /** The values measured (one per repetition or round), or the harness's own summary when it keeps no values. */
  values?: number[];
  summary?: { n: number; mean: number; stddev: number };
}

/** A problem in the file: a JSON Pointer into it, or a line of a text output. */
export interface FileProblem {
  /** A JSON Pointer into the file (`/benchmarks/0/real_time`), or `line 12`. */
  where: string;
  message: string;
}

/** Thrown by an adapter with every problem it found in the file. */
export class FileProblems extends Error {
  constructor(readonly problems: FileProblem[]) {
    super(problems.map((p) => `${p.where}: ${p.message}`).join("; "));
  }
}

/** An adapter: a harness's output (its file's text) to its measures; throws FileProblems. */
export type Adapter = (text: string) => Measure[];

/** Parses a JSON file; a syntax error names its line and column (found by jsonc-parser: JSON.parse's message does not say where). */
export function parseJsonFile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Loaded for a file that is not JSON only: ~40 ms of CPU that every server start paid.
    const { parseTree, printParseErrorCode } = createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser");
    const errors: ParseError[] = [];
    parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (!first) throw new FileProblems([{ where: "line 1", message: "is not JSON" }]);
    const before = text.slice(0, first.offset);
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    throw new FileProblems([{ where: `line ${line}`, message: `is not JSON: ${printParseErrorCode(first.error)} at column ${column}` }]);
  }
}

/** A JSON Pointer of these tokens (RFC 6901). */
export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Checks of a JSON document's values that collect every problem rather than stop at the first. */
export class JsonReader {
  readonly problems: FileProblem[] = [];

  fail(where: string, message: string): undefined {
    this.problems.push({ where: where || "/", message });
    return undefined;
  }
  object(value: unknown, where: string): Record<string, unknown> | undefined {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return this.fail(where, "must be an object");
  }
  array(value: unknown, where: string): unknown[] | undefined {
    return Array.isArray(value) ? value : this.fail(where, "must be an array");
  }
  string(value: unknown, where: string): string | undefined {
    return typeof value === "string" && value !== "" ? value : this.fail(where, "must be a non-empty string");
  }
  number(value: unknown, where: string): number | undefined {
    return typeof value === "number" && Number.isFinite(value) ? value : this.fail(where, "must be a finite number");
  }
  numbers(value: unknown, where: string): number[] | undefined {
    const list = this.array(value, where);
    if (!list) return undefined;
    if (list.length === 0) return this.fail(where, "must hold at least one value");
    const bad = list.findIndex((v) => typeof v !== "number" || !Number.isFinite(v));
    return bad >= 0 ? this.fail(`${where}/${bad}`, "must be a finite number") : (list as number[]);
  }
  /** Throws the problems found, if any. */
  done(): void {
    if (this.problems.length > 0) throw new FileProblems(this.problems);
  }
}
