// Writes the README's reference of the built-in catalog (between its marker lines) from the
// definitions. Usage (after `npm run build`): node scripts/generate-readme.mjs [--check]
// --check writes nothing and exits 1 when the README is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "../dist/index.js";
import { renderCatalogReference, replaceGenerated } from "../dist/readme.js";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const problems = [];
const catalog = loadCatalog({ onError: (file, e) => problems.push(`${file}: ${e.message}`) });
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
const before = readFileSync(README, "utf8");
const after = replaceGenerated(before, renderCatalogReference(catalog));
if (process.argv.includes("--check")) {
  if (after !== before) {
    console.error("README.md is out of date: run `npm run readme -w @benchwright/catalog`");
    process.exit(1);
  }
} else if (after !== before) {
  writeFileSync(README, after);
  console.log("README.md updated");
}
