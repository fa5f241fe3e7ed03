import type { Parser } from "../types.js";
/** 7-Zip's `7z b`: compression and decompression speed and rating, from a finished run only (Tot: is last). */
export declare const sevenZip: Parser;
