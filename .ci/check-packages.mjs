#!/usr/bin/env node
// Packs each publishable workspace (not "private") as `npm publish` would, prepack included,
// and checks the tarball itself with publint and Are the Types Wrong; any message of either
// fails. Run after a build: the SDK's prepack needs the contract's generated schema.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
const out = mkdtempSync(join(tmpdir(), "bw-pack-"));
let failed = false;
try {
  for (const { dir, pkg } of publishable) {
    let packed;
    try {
      // prepack's own output goes to stderr: stdout is npm's JSON alone.
      const json = execFileSync("npm", ["pack", "--json", "--foreground-scripts", "--pack-destination", out], {
        cwd: dir,
        env,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      });
      [packed] = JSON.parse(json.slice(json.indexOf("[")));
    } catch (e) {
      console.error(`${pkg.name}: npm pack failed\n${String(e.stdout ?? e.message).slice(-4000)}`);
      failed = true;
      continue;
    }
    const tarball = join(out, packed.filename);
    console.log(`${pkg.name}: ${packed.filename}, ${packed.entryCount} files`);
    if (!packed.files.some((f) => f.path === "LICENSE")) {
      console.error(`  ${pkg.name}: the tarball has no LICENSE`);
      failed = true;
    }

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
      execFileSync(join(root, "node_modules", ".bin", "attw"), [tarball, ...profile, "--format", "table", "--no-emoji", "--no-color"], {
        env,
        stdio: "inherit",
      });
    } catch {
      failed = true;
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
if (failed) {
  console.error("check-packages: a publishable package has problems (above)");
  process.exit(1);
}
