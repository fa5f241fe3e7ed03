// Bundles the hand-written contract into one JSON document: the single file that
// openapi-typescript, express-openapi-validator, Prism and the docs page all read.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { applyProblemCatalogue, problemsModule } from "./problem-catalogue.mjs";
import { describeMaskedAnswers } from "./masked-answers.mjs";
import { toSwagger2 } from "./swagger2.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const source = resolve(here, "../../../openapi/openapi.yaml");
const target = resolve(here, "../dist/openapi.json");

const spec = parse(readFileSync(source, "utf8"));
const missing = [];
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (method === "parameters") continue;
    if (!op.operationId) missing.push(`${method.toUpperCase()} ${path}`);
  }
}
if (missing.length) {
  console.error(`operations without an operationId: ${missing.join(", ")}`);
  process.exit(1);
}
const problems = applyProblemCatalogue(spec);
describeMaskedAnswers(spec);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, JSON.stringify(spec, null, 2) + "\n");
// The Swagger 2.0 rendition, for the clients of flask-restplus' /swagger.json.
writeFileSync(resolve(dirname(target), "swagger.json"), JSON.stringify(toSwagger2(spec), null, 2) + "\n");
const generated = resolve(here, "../src/generated");
mkdirSync(generated, { recursive: true });
writeFileSync(resolve(generated, "problems.ts"), problemsModule(problems));
