import type { Parser } from "../types.js";
/** sockperf ping-pong (latency, usec) and throughput (message rate, bandwidth), from a finished test. */
export declare const sockperf: Parser;
