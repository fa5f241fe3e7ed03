// The JavaScript the server runs, from TypeScript without type checks or declarations:
// esbuild transpiles each module of the server's packages (contract, catalog, engine, server)
// in a second where tsc takes a minute on two cores. `npm start` runs it when the server's
// build is missing, answers, then runs the whole build (tsc, checked, with declarations, and
// the dashboard), which writes the same modules again.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildDir, replaceDist } from "./atomic-build.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER_CHAIN = ["packages/contract", "packages/catalog", "packages/engine", "apps/server"];

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.ts$/.test(name) && !/\.(test|itest)\.ts$|\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

export async function quickBuild() {
  // The contract's bundle (dist/openapi.json) and its problems module come from its own script.
  await import(join(ROOT, "packages/contract/scripts/bundle.mjs"));
  for (const pkg of SERVER_CHAIN) {
    const src = join(ROOT, pkg, "src");
    // Written beside dist/ and swapped in whole: npm start stopped here leaves the old build.
    const out = buildDir(join(ROOT, pkg));
    await build({
      entryPoints: sources(src),
      outdir: out,
      outbase: src,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: true,
      logLevel: "error",
      tsconfig: join(ROOT, pkg, "tsconfig.build.json"),
    });
    replaceDist(join(ROOT, pkg), out);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await quickBuild();
