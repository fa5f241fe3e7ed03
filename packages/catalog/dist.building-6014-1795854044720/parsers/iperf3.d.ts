import type { Parser } from "../types.js";
/** iperf3 `-J`: throughput both ways; retransmits for TCP; jitter and loss for UDP. */
export declare const iperf3: Parser;
