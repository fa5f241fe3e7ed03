// Builds ESM and CJS with tsc alone. The generated schema is copied in from the contract
// so that the published declarations never import @benchwright/contract, which is not
// published.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function contractSchema() {
  // The contract's exports map has only an "import" condition, hence import.meta.resolve.
  let entry;
  try {
    entry = fileURLToPath(import.meta.resolve("@benchwright/contract"));
  } catch {
    entry = resolve(pkgDir, "../contract/dist/index.js");
  }
  const schema = join(dirname(entry), "generated", "schema.d.ts");
  if (!existsSync(schema)) {
    console.error(
      `${schema} is missing: build the contract first\n` +
        "  npx turbo run build --filter=@benchwright/contract",
    );
    process.exit(1);
  }
  return schema;
}

function tsc(project) {
  const bin = require.resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [bin, "-p", project], { cwd: pkgDir, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const schema = contractSchema();
const generated = join(pkgDir, "src", "generated");
mkdirSync(generated, { recursive: true });
copyFileSync(schema, join(generated, "schema.d.ts"));

rmSync(join(pkgDir, "dist"), { recursive: true, force: true });
tsc("tsconfig.esm.json");
tsc("tsconfig.cjs.json");

for (const format of ["esm", "cjs"]) {
  // tsc never copies .d.ts inputs to its output, yet the emitted declarations import it.
  const out = join(pkgDir, "dist", format, "generated");
  mkdirSync(out, { recursive: true });
  copyFileSync(join(generated, "schema.d.ts"), join(out, "schema.d.ts"));
}
// The package is "type": "module"; this marks dist/cjs's .js and .d.ts files as CommonJS
// for Node and for TypeScript, so no renaming or rewriting of specifiers is needed.
writeFileSync(join(pkgDir, "dist", "cjs", "package.json"), JSON.stringify({ type: "commonjs" }, null, 2) + "\n");
console.log("built dist/esm and dist/cjs");
