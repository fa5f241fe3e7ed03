import type { Parser } from "../types.js";
/** iperf (2): the client's throughput over the whole run, every stream summed. */
export declare const iperf: Parser;
