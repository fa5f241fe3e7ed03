import type { Parser } from "../types.js";
/** sysbench reports (cpu, memory, fileio, threads, oltp); figures are tagged with the thread count. */
export declare const sysbench: Parser;
