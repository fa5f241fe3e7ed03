import type { Parser } from "../types.js";
/** stress-ng `--metrics-brief`: bogo ops and their rates per stressor, from a successful run only. */
export declare const stressNg: Parser;
