import type { Metric } from "../types.js";
/** A finite number from a tool's text, or undefined: `nan`, `inf` and empty fields are not figures. */
export declare function toNumber(text: string | undefined): number | undefined;
/** A finite number from parsed JSON, or undefined. */
export declare function jsonNumber(v: unknown): number | undefined;
/** Appends a metric only when the value is really there. */
export declare function push(out: Metric[], name: string, value: number | undefined, unit: string, tags?: Record<string, string>): void;
/**
 * The first JSON object in the output that `accept` likes. Tools print warnings before their
 * JSON (fio) and scripts may add log lines after it. fio and iperf3 put the braces of their
 * top-level object at column 0, so only those are candidates: each `{` is tried against each
 * later `}`, outermost first, with a cap so that a large log of near-JSON stays cheap.
 */
export declare function findJsonObject(output: string, accept: (v: Record<string, unknown>) => boolean): Record<string, unknown> | undefined;
export declare function isObject(v: unknown): v is Record<string, unknown>;
