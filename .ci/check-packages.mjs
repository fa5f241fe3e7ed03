#!/usr/bin/env node
// Packs each publishable workspace (not "private") as `npm publish` would, prepack included,
// and checks the tarball itself with publint and Are the Types Wrong; any message of either
// fails. Run after a build: the SDK's prepack needs the contract's generated schema.
//   node .ci/check-packages.mjs                 packs into a temporary folder, checks, removes it
//   node .ci/check-packages.mjs --pack-to DIR   packs into DIR (kept) and checks nothing
//   node .ci/check-packages.mjs --from DIR      checks the tarballs already in DIR
// CI packs first (the prepacks rewrite the CLI's dist/ and put the dashboard in the server's
// ui/, which the tests must not see change), then checks those same tarballs, and the deployment
// check installs them, beside the tests.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const publishable = rootPkg.workspaces
  .map((dir) => ({ dir: join(root, dir), pkg: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) }))
  .filter(({ pkg }) => !pkg.private);
if (publishable.length === 0) throw new Error("no publishable workspace: the check would prove nothing");

// `npm test` exports npm_config_* (workspace among them) that would make npm pack act elsewhere.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_")));
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? resolve(process.argv[at + 1]) : undefined;
};
const packTo = option("--pack-to");
const from = option("--from");
const out = packTo ?? from ?? mkdtempSync(join(tmpdir(), "bw-pack-"));
mkdirSync(out, { recursive: true });

/** Packs the workspace in `dir` into `out`, prepack included: npm's account of the tarball. */
function pack(dir, out) {
  // prepack's own output goes to stderr: stdout is npm's JSON alone.
  const json = execFileSync("npm", ["pack", "--json", "--foreground-scripts", "--pack-destination", out], {
    cwd: dir,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(json.slice(json.indexOf("[")))[0];
}

/** The same account of a tarball packed before (`--pack-to`): npm names `@scope/name` 1.2.3 scope-name-1.2.3.tgz. */
function packedIn(out, pkg) {
  const filename = `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`;
  const paths = execFileSync("tar", ["-tzf", join(out, filename)], { encoding: "utf8" })
    .split("\n")
    .filter((p) => p && !p.endsWith("/"));
  return { filename, entryCount: paths.length, files: paths.map((p) => ({ path: p.replace(/^package\//, "") })) };
}

/**
 * The packages the tarball's JavaScript imports (`from "x"`, `import "x"`, `import("x")`) that its
 * own package.json does not declare: found where the workspace hoists them, missing where the
 * package is installed with its dependencies alone (the CLI's `plan report` once imported the
 * contract, a devDependency of the CLI's, and failed so from its tarball).
 */
function undeclaredImports(tarball) {
  const dir = mkdtempSync(join(tmpdir(), "bw-unpack-"));
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", dir]);
    const pkg = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8"));
    const declared = new Set([pkg.name, ...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies })]);
    const missing = new Set();
    const files = readdirSync(join(dir, "package"), { recursive: true, encoding: "utf8" }).filter((f) => /\.(m?js)$/.test(f) && !f.includes("node_modules"));
    for (const file of files) {
      const text = readFileSync(join(dir, "package", file), "utf8");
      for (const [, spec] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"'./][^"']*)["']/gm)) {
        // A package's name (SQL and messages hold `from '...'` too).
        if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w.@/-]*)?$/i.test(spec)) continue;
        const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
        if (name.startsWith("node:") || builtinModules.includes(name) || declared.has(name)) continue;
        missing.add(`${name} (${file})`);
      }
    }
    return [...missing];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let failed = false;
try {
  for (const { dir, pkg } of publishable) {
    let packed;
    try {
      packed = from ? packedIn(out, pkg) : pack(dir, out);
    } catch (e) {
      console.error(`${pkg.name}: npm pack failed\n${String(e.stdout ?? e.message).slice(-4000)}`);
      failed = true;
      continue;
    }
    console.log(`${pkg.name}: ${packed.filename}, ${packed.entryCount} files`);
    if (packTo) continue;
    const tarball = join(out, packed.filename);
    if (!packed.files.some((f) => f.path === "LICENSE")) {
      console.error(`  ${pkg.name}: the tarball has no LICENSE`);
      failed = true;
    }

    const undeclared = undeclaredImports(tarball);
    for (const u of undeclared) console.error(`  ${pkg.name}: imports ${u}, which its package.json does not declare`);
    if (undeclared.length) failed = true;

    const bytes = readFileSync(tarball);
    const { messages, pkg: packedPkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      level: "suggestion",
      strict: true,
    });
    for (const m of messages) console.error(`  publint ${m.type}: ${formatMessage(m, packedPkg) ?? m.code}`);
    if (messages.length) failed = true;
    else console.log("  publint: no problem");

    try {
      // The server and its engine are ESM only, as the server's dependencies are: a CommonJS
      // `require` of them is not offered, so attw checks them as ESM-only packages.
      const esmOnly = pkg.type === "module" && pkg.exports && !JSON.stringify(pkg.exports).includes('"require"');
      const profile = esmOnly ? ["--profile", "esm-only"] : [];
      // Data files exported for editors (the SDK's benchmark-definition JSON Schema) have no types
      // to check, and node10's resolution, which predates exports maps, cannot find a subpath.
      const data = Object.keys(pkg.exports ?? {}).filter((k) => k.endsWith(".json") && k !== "./package.json");
      const excluded = data.length ? ["--exclude-entrypoints", ...data] : [];
      execFileSync(join(root, "node_modules", ".bin", "attw"), [tarball, ...profile, ...excluded, "--format", "table", "--no-emoji", "--no-color"], {
        env,
        stdio: "inherit",
      });
    } catch {
      failed = true;
    }
  }
} finally {
  if (!packTo && !from) rmSync(out, { recursive: true, force: true });
}
if (failed) {
  console.error("check-packages: a publishable package has problems (above)");
  process.exit(1);
}
