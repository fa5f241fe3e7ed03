import type { ToolDefinition } from "./types.js";
/**
 * Reads one definition file's text into a ToolDefinition, or throws a CatalogError whose
 * message names the file and lists every problem found.
 */
export declare function parseDefinition(text: string, file: string, parserNames: readonly string[]): ToolDefinition;
