#!/usr/bin/env node
// The image's /opt/benchwright, in two parts (deploy/Containerfile):
//
//   node runtime-tree.mjs deps CLOSURE DEST
//     CLOSURE is `npm ls --all --parseable --omit=dev -w ...` run in the root of a tree that
//     `npm ci --omit=dev -w ...` installed from the repository's lockfile: the packages the
//     named workspaces need at run time, at the place npm put them. Each is copied to DEST with
//     the same layout, except the workspaces themselves (links to their folders, which the
//     packed tarballs replace) and what npm nested under a workspace's folder, which goes under
//     that package's folder in DEST/node_modules. TypeScript declarations and source maps are
//     left out: Node loads neither, and they are a third of the dependencies' size.
//
//   node runtime-tree.mjs packs DIR DEST
//     Each DIR/*.tgz (`npm pack` output) unpacked into DEST/node_modules/<its name>, as published,
//     and its `bin` entries linked from DEST/bin, as `npm install -g --prefix DEST` would.
//
// Third-party versions are therefore the lockfile's, and our packages exactly what is published.
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const [command, from, to] = process.argv.slice(2);
if (!["deps", "packs"].includes(command) || !from || !to) {
  console.error("usage: runtime-tree.mjs deps CLOSURE DEST | packs DIR DEST");
  process.exit(2);
}
const dest = resolve(to);
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
/** Files Node never reads: declarations and source maps (the package's own code stays whole). */
const unused = /\.(d\.[cm]?ts|map)$/;

if (command === "deps") {
  const root = process.cwd();
  const paths = readFileSync(from, "utf8").split("\n").filter(Boolean);
  if (paths.length === 0) throw new Error(`${from} lists no package`);
  // The workspaces: links in node_modules to their folders. Their nested dependencies sit in
  // those folders (apps/server/node_modules/pino) and go under the package's name instead.
  const workspaces = new Map();
  for (const path of paths) {
    if (path !== root && lstatSync(path).isSymbolicLink()) workspaces.set(realpathSync(path), readJson(join(path, "package.json")).name);
  }
  let copied = 0;
  for (const path of paths) {
    if (path === root || workspaces.has(realpathSync(path))) continue;
    const owner = [...workspaces.keys()].find((dir) => path.startsWith(dir + sep));
    const target = owner ? join(dest, "node_modules", workspaces.get(owner), relative(owner, path)) : join(dest, relative(root, path));
    if (!target.startsWith(join(dest, "node_modules") + sep)) throw new Error(`${path} is outside the tree`);
    // Its own nested node_modules are in the closure themselves, when needed at all.
    const nested = join(path, "node_modules");
    cpSync(path, target, { recursive: true, filter: (src) => src !== nested && !unused.test(src) });
    copied++;
  }
  console.log(`runtime-tree: ${copied} packages in ${dest} (${workspaces.size} workspaces left to their tarballs)`);
} else {
  const tarballs = readdirSync(from).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length === 0) throw new Error(`no *.tgz in ${from}`);
  mkdirSync(join(dest, "bin"), { recursive: true });
  for (const name of tarballs) {
    const tarball = join(from, name);
    const pkg = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
    const dir = join(dest, "node_modules", pkg.name);
    mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1", "--no-same-owner"]);
    const bins = typeof pkg.bin === "string" ? { [pkg.name.split("/").pop()]: pkg.bin } : (pkg.bin ?? {});
    for (const [bin, file] of Object.entries(bins)) {
      chmodSync(join(dir, file), 0o755);
      symlinkSync(relative(join(dest, "bin"), join(dir, file)), join(dest, "bin", bin));
    }
    console.log(`runtime-tree: ${pkg.name}@${pkg.version}${Object.keys(bins).length ? ` (${Object.keys(bins).join(", ")})` : ""}`);
  }
}
