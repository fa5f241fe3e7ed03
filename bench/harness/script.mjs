// Running a bench script: its clean-ups, its time limit, its flags and its temporary dirs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { failure, printRecordedFigures } from "./figures.mjs";

const CLEANUP_LIMIT_MS = 30_000;

/** Clean-ups run in reverse order of registration; `run` may be called again (it runs each once). */
export function cleanupStack() {
  const stack = [];
  return {
    defer: (fn) => stack.push(fn),
    async run() {
      while (stack.length) {
        const fn = stack.pop();
        let timer;
        // A clean-up that hangs (a server that does not stop) must not keep the others from running.
        const limit = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no end after ${CLEANUP_LIMIT_MS / 1000} s`)), CLEANUP_LIMIT_MS)));
        try {
          await Promise.race([Promise.resolve().then(fn), limit]);
        } catch (e) {
          console.error(`clean-up failed: ${e.message}`);
        } finally {
          clearTimeout(timer);
        }
      }
    },
  };
}

/**
 * Runs a bench script's body with `defer` to register clean-ups, which run when it ends,
 * fails, is interrupted or passes its time limit; then prints its figures.
 */
export async function main(body, { limitSeconds = 600 } = {}) {
  const cleanups = cleanupStack();
  const abort = async (why) => {
    console.error(`${why}: cleaning up`);
    await cleanups.run();
    printRecordedFigures();
    process.exit(1);
  };
  process.once("SIGINT", () => abort("interrupted"));
  process.once("SIGTERM", () => abort("terminated"));
  setTimeout(() => abort(`still running after ${limitSeconds} s`), limitSeconds * 1000).unref();
  try {
    await body(cleanups.defer);
  } catch (e) {
    failure(basename(process.argv[1]), e);
  } finally {
    await cleanups.run();
  }
  printRecordedFigures();
  // Whatever handle a failure left open (a timer, a socket), the script ends here.
  process.exit();
}

/** `--name=value` flags over defaults; a value takes the type of its default. */
export function flags(defaults) {
  const out = { ...defaults };
  for (const arg of process.argv.slice(2)) {
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (!m)
      throw new Error(
        `Unknown argument ${arg}; flags: ${Object.keys(defaults)
          .map((k) => `--${k}`)
          .join(" ")}`,
      );
    const key = m[1].replace(/-(\w)/g, (_, c) => c.toUpperCase());
    if (!(key in defaults))
      throw new Error(
        `Unknown flag --${m[1]}; flags: ${Object.keys(defaults)
          .map((k) => `--${k}`)
          .join(" ")}`,
      );
    const value = m[2] ?? "true";
    out[key] = typeof defaults[key] === "number" ? Number(value) : typeof defaults[key] === "boolean" ? value !== "false" : value;
    if (Number.isNaN(out[key])) throw new Error(`--${m[1]} takes a number`);
  }
  return out;
}

export function tempDir(defer, prefix) {
  const dir = mkdtempSync(join(tmpdir(), `bw-bench-${prefix}-`));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
