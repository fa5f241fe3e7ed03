import type { Parser } from "../types.js";
/** pgbench's summary: transactions per second, latency and counts, from a finished run only (its tps line is last). */
export declare const pgbench: Parser;
