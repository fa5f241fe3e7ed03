import type { Parser } from "../types.js";
/** Parsers by the name a definition's `parser` field uses. */
export declare const parsers: Readonly<Record<string, Parser>>;
