import type { Parser } from "../types.js";
/** mbw: mean copy bandwidth and time per method. */
export declare const mbw: Parser;
