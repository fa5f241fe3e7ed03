// Build step (issue 36): the built-in definitions' YAML, parsed once here rather than on every
// start, into <out>/parsed-builtins.json (read by src/parsed-builtins.ts). A file whose parse
// does not survive JSON unchanged (say `.inf`) is left out: it is parsed at start, as before.
//   node scripts/parse-builtins.mjs <out dir>
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse } from "yaml";

const out = process.argv[2];
if (!out) throw new Error("usage: node scripts/parse-builtins.mjs <out dir>");
const tools = new URL("../tools/", import.meta.url).pathname;
const parsed = {};
for (const entry of readdirSync(tools, { withFileTypes: true })) {
  const name = join(entry.name, "definition.yaml");
  if (!entry.isDirectory() || !existsSync(join(tools, name))) continue;
  const text = readFileSync(join(tools, name), "utf8");
  let raw;
  try {
    raw = parse(text, { prettyErrors: true });
  } catch {
    continue; // The start says what is wrong with it, as before.
  }
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(raw)), raw)) continue;
  parsed[name] = { sha256: createHash("sha256").update(text).digest("hex"), raw };
}
writeFileSync(join(out, "parsed-builtins.json"), JSON.stringify(parsed));
