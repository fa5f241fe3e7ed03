/**
 * Whether a fresh Node process, after running `script` (ESM, with `cwd` as its directory:
 * the built engine's dist/), has loaded a CommonJS module whose path contains `module`.
 * For checks that a dependency stays out of a process that does not need it.
 */
export declare function loadedAfter(cwd: string, script: string, module: string): boolean;
