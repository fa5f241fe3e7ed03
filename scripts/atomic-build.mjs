// A package's build that never leaves it without its output: the command writes into a new
// directory beside `dist/` (the literal `{out}` in its arguments names it), and only once it has
// succeeded does that directory replace `dist/`, by rename. Stopping a build (Ctrl-C in `npm
// start`'s first minute) or running two at once leaves the old output or the new, never none
// and never a mix.
//   node ../../scripts/atomic-build.mjs [--clean] <command> [args...]
// Without --clean the new directory starts as a copy of the old output (what other tasks put in
// `dist/`, such as the contract's bundle, and what tsc writing in place used to keep).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const DIST = "dist";

/** A directory `prefix<pid>` in `dir` whose process is gone: left by a build that was stopped. */
function abandoned(dir, prefix) {
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .filter((name) => {
      const pid = Number(name.slice(prefix.length).split("-")[0]);
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
}

/**
 * Puts `dist/` back where a build was stopped between its two renames, and removes what stopped
 * builds left; called before each build.
 */
function recoverDist(pkgDir) {
  const dist = join(pkgDir, DIST);
  const old = abandoned(pkgDir, `${DIST}.old-`);
  if (!existsSync(dist) && old.length > 0) renameSync(join(pkgDir, old.pop()), dist);
  for (const name of [...old, ...abandoned(pkgDir, `${DIST}.building-`)]) rmSync(join(pkgDir, name), { recursive: true, force: true });
}

/** A new directory for a build's output, beside `dist/` (the same file system, so it can be renamed over it). */
export function buildDir(pkgDir, { clean = false } = {}) {
  recoverDist(pkgDir);
  const out = join(pkgDir, `${DIST}.building-${process.pid}-${Date.now()}`);
  const dist = join(pkgDir, DIST);
  if (!clean && existsSync(dist)) cpSync(dist, out, { recursive: true });
  else mkdirSync(out);
  return out;
}

/** Makes `out` the package's `dist/`: the old one is renamed away, then `out` renamed in, then the old one removed. */
export function replaceDist(pkgDir, out) {
  const dist = join(pkgDir, DIST);
  const old = join(pkgDir, `${DIST}.old-${process.pid}-${Date.now()}`);
  for (;;) {
    try {
      renameSync(dist, old);
    } catch (e) {
      if (e.code !== "ENOENT") throw e;
    }
    try {
      renameSync(out, dist);
      break;
    } catch (e) {
      // Another build put its output in between: this one's is newer, so it goes in after all.
      if (e.code !== "ENOTEMPTY" && e.code !== "EEXIST") throw e;
    }
  }
  rmSync(old, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const clean = args[0] === "--clean";
  if (clean) args.shift();
  const pkgDir = resolve(".");
  const out = buildDir(pkgDir, { clean });
  const [command, ...rest] = args.map((a) => a.replaceAll("{out}", out));
  const result = spawnSync(command, rest, { stdio: "inherit", shell: false, env: { ...process.env, BUILD_OUT: out } });
  if (result.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
  replaceDist(pkgDir, out);
}
