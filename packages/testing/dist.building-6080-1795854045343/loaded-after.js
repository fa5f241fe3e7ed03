import { execFileSync } from "node:child_process";
/**
 * Whether a fresh Node process, after running `script` (ESM, with `cwd` as its directory:
 * the built engine's dist/), has loaded a CommonJS module whose path contains `module`.
 * For checks that a dependency stays out of a process that does not need it.
 */
export function loadedAfter(cwd, script, module) {
    const out = execFileSync(process.execPath, [
        "--input-type=module",
        "-e",
        `
    import { createRequire } from "node:module";
    ${script}
    const cache = Object.keys(createRequire(${JSON.stringify(cwd + "/")}).cache);
    process.stdout.write(String(cache.some((k) => k.includes(${JSON.stringify(module)}))));
  `,
    ], { cwd, encoding: "utf8" });
    return out.trim() === "true";
}
//# sourceMappingURL=loaded-after.js.map