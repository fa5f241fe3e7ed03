import type { Parser } from "../types.js";
/**
 * `BW_METRIC <name> <value> <unit> [key=value ...]` on a line of its own, anywhere in the
 * output. A malformed line is skipped whole rather than half-read.
 */
export declare const keyvalue: Parser;
