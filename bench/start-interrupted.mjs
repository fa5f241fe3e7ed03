// Stops `npm start` at 5, 20 and 40 s after it starts, three times each (SIGKILL to its whole
// process group: the quick build, the server and the whole build behind it), and checks after
// each stop that every package's dist/ is whole: each file the last complete build left is
// there and not empty. A build that began with `rm -rf dist` or wrote in place failed this.
// Builds are forced (TURBO_FORCE), so each start really rebuilds rather than restoring turbo's cache.
//
// Usage: node bench/start-interrupted.mjs [seconds ...]   (default 5 20 40; three times each)
// It builds first, and leaves the tree built.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = ["packages/contract", "packages/catalog", "packages/testing", "packages/engine", "packages/sdk", "packages/cli", "apps/server", "apps/web"];
const delays = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [5, 20, 40];

function files(dir) {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(join(dir, f)).isFile());
}

/** Each package's dist/ files, as a complete build leaves them. */
function manifest() {
  return new Map(PACKAGES.map((pkg) => [pkg, files(join(ROOT, pkg, "dist"))]));
}

/** What is wrong with the packages' dist/ now: missing, or missing or empty files of `whole`. */
function problems(whole) {
  const found = [];
  for (const [pkg, expected] of whole) {
    const dist = join(ROOT, pkg, "dist");
    if (!existsSync(dist)) {
      found.push(`${pkg}: no dist/`);
      continue;
    }
    const missing = expected.filter((f) => !existsSync(join(dist, f)) || statSync(join(dist, f)).size === 0);
    if (missing.length) found.push(`${pkg}: ${missing.length} file(s) missing or empty in dist/, e.g. ${missing.slice(0, 3).join(", ")}`);
  }
  return found;
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

execFileSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { cwd: ROOT, stdio: "inherit" });
const whole = manifest();
let failed = 0;
for (const seconds of delays) {
  for (let i = 1; i <= 3; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-start-"));
    const start = spawn("npm", ["start"], {
      cwd: ROOT,
      detached: true,
      stdio: "ignore",
      env: { ...process.env, PORT: String(await freePort()), HOST: "127.0.0.1", BENCHWRIGHT_DATA_DIR: dataDir, TURBO_FORCE: "true" },
    });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    process.kill(-start.pid, "SIGKILL");
    await new Promise((r) => (start.exitCode === null && start.signalCode === null ? start.once("exit", r) : r()));
    // What the killed processes were writing is closed by now; a moment for the kernel to reap them.
    await new Promise((r) => setTimeout(r, 500));
    const found = problems(whole);
    console.log(`stopped at ${seconds} s (${i}/3): ${found.length ? `BROKEN\n  ${found.join("\n  ")}` : "every dist/ whole"}`);
    if (found.length) failed++;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
// Builds left behind by the stops are cleared, and the tree is built again.
execFileSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { cwd: ROOT, stdio: "inherit" });
console.log(failed ? `${failed} stop(s) left a broken dist/` : `every stop left every dist/ whole (${relative(process.cwd(), ROOT) || "."})`);
process.exit(failed ? 1 : 0);
