import type { Parser } from "../types.js";
/** wrk: requests and bytes per second, the latency's mean and percentiles (with --latency), errors. */
export declare const wrk: Parser;
