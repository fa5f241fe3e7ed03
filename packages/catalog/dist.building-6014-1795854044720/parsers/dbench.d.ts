import type { Parser } from "../types.js";
/** dbench: throughput and the longest latency of all clients. */
export declare const dbench: Parser;
