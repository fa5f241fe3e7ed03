import type { Parser } from "../types.js";
/** fio `--output-format=json`: per job and direction (read, write) that did I/O. */
export declare const fio: Parser;
