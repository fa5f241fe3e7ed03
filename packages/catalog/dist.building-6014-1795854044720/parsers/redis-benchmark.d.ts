import type { Parser } from "../types.js";
/** redis-benchmark's CSV report: requests per second and latencies, per test (SET, GET...). */
export declare const redisBenchmark: Parser;
