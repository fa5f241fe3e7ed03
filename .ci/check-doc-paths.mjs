// Every file path the docs name exists: the README, ARCHITECTURE.md and docs/*.md, in their
// `code spans` and relative links. A path is found relative to the repository, to the doc, or to
// a package (`packages/*`, `apps/*`, and their `src/`), as the docs write them inside one. Paths
// with a wildcard or a placeholder (`*`, `<id>`, `{...}`) are not checked; neither are paths a
// run or a build makes (`.benchwright/`, `dist/`, `node_modules/`, `src/generated/`), absolute ones (a URL's path, the host's)
// or a user's example files.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const PACKAGES = ["packages", "apps"].flatMap((d) => readdirSync(join(ROOT, d)).map((p) => `${d}/${p}`));
const BASES = ["", ...PACKAGES, ...PACKAGES.map((p) => `${p}/src`)];
// A file name with a known extension, with at least one directory, or a directory ending in /.
const FILE = /^(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:ts|tsx|mjs|cjs|js|json|jsonc|ya?ml|md|sh|sql|html|css|toml)$/;
const DIR = /^(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\/$/;
const MADE = /(^|\/)(\.benchwright|dist|node_modules|ui|\.turbo|coverage|test-results|generated)(\/|$)/;
// Files a user makes, named as examples.
const EXAMPLES = new Set(["config/providers/aws.yaml"]);

function named(text) {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
  const links = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
  return [...spans.filter((s) => (FILE.test(s) && s.includes("/")) || DIR.test(s)), ...links];
}

const missing = [];
for (const doc of DOCS) {
  const text = readFileSync(join(ROOT, doc), "utf8");
  for (const path of new Set(named(text))) {
    // An absolute path is a URL's or the host's (`/api/v1/...`, `/etc/...`), not the repository's.
    if (/[*<>{}$]/.test(path) || path.startsWith("/") || MADE.test(path) || EXAMPLES.has(path)) continue;
    const found = [dirname(doc), ...BASES].some((base) => existsSync(join(ROOT, base, path)));
    if (!found) missing.push(`${doc}: ${path}`);
  }
}
if (missing.length) {
  console.error(`The docs name ${missing.length} path(s) that do not exist:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
console.log(`every path the docs name exists (${DOCS.length} docs)`);
