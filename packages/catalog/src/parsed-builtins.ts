import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { relative } from "node:path";

/**
 * The built-in definitions' YAML, parsed when the package is built (scripts/parse-builtins.mjs):
 * parsing their YAML was a quarter of a server's start (issue 36), and the files do not change
 * between starts. Each entry is keyed by the file's path under `tools/` and the hash of its text,
 * so a file edited since the build (or one the build could not keep as JSON) is parsed again.
 */
export const PARSED_BUILTINS_FILE = "parsed-builtins.json";

type Parsed = Record<string, { sha256: string; raw: unknown }>;

/** The hash an entry is kept under. */
function textHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A lookup of `file`'s parsed YAML (undefined when not kept, or kept for another text). */
export function parsedBuiltins(
  toolsDir: string,
  keptIn: URL | string = new URL(PARSED_BUILTINS_FILE, import.meta.url),
): (file: string, text: string) => unknown {
  let kept: Parsed = {};
  try {
    kept = JSON.parse(readFileSync(keptIn, "utf8")) as Parsed;
  } catch {
    // Not built (the sources under test): every file is parsed.
  }
  return (file, text) => {
    const entry = kept[relative(toolsDir, file)];
    return entry && entry.sha256 === textHash(text) ? entry.raw : undefined;
  };
}
