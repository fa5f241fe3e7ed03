// Runs every bench script in turn, each in its own process with its default counts, then
// prints one table of all their figures: measure | now | reference | ratio | target | ok?
// Exits 1 when a script could not measure something (a "failed" row) or when a target is missed
// (a row whose ok? is NO).
//
// Usage: node bench/all.mjs [script ...]   e.g. node bench/all.mjs concurrency log-memory
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printFigures } from "./harness/figures.mjs";

const SCRIPTS = [
  { name: "step-overhead" },
  // Issue 36 measures the step protocol at a 50 ms round trip too.
  { name: "step-overhead", args: ["--delay-ms=50"] },
  { name: "api-throughput" },
  { name: "concurrency" },
  { name: "memory-startup" },
  { name: "event-subscribers" },
  // --expose-gc lets it collect its own garbage before measuring the reference's growth.
  { name: "log-memory", node: ["--expose-gc"] },
  { name: "output-stages" },
  { name: "change-points" },
  { name: "allocation" },
  { name: "telemetry-cost" },
  { name: "cancel-large-run" },
];

const chosen = process.argv.slice(2).map((a) => a.replace(/\.mjs$/, ""));
const unknown = chosen.filter((c) => !SCRIPTS.some((s) => s.name === c));
if (unknown.length) {
  console.error(`Unknown script(s) ${unknown.join(", ")}; choose from ${SCRIPTS.map((s) => s.name).join(", ")}`);
  process.exit(2);
}
const scripts = chosen.length ? SCRIPTS.filter((s) => chosen.includes(s.name)) : SCRIPTS;

const dir = mkdtempSync(join(tmpdir(), "bw-bench-all-"));
const figuresFile = join(dir, "figures.jsonl");
// Ctrl-C reaches the running script too, which cleans up and ends; then stop here.
let interrupted = false;
process.on("SIGINT", () => (interrupted = true));
process.on("SIGTERM", () => (interrupted = true));

const timings = [];
let failed = false;
for (const script of scripts) {
  if (interrupted) break;
  console.log(`\n######## ${[script.name, ...(script.args ?? [])].join(" ")}`);
  const started = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [...(script.node ?? []), fileURLToPath(new URL(`./${script.name}.mjs`, import.meta.url)), ...(script.args ?? [])], {
      stdio: "inherit",
      env: { ...process.env, BENCH_FIGURES_FILE: figuresFile },
    });
    child.once("exit", (c, signal) => resolve(c ?? signal));
  });
  const seconds = (performance.now() - started) / 1000;
  timings.push(`${[script.name, ...(script.args ?? [])].join(" ")} ${seconds.toFixed(0)} s${code === 0 ? "" : ` (exit ${code})`}`);
  if (code !== 0) failed = true;
}

const rows = existsSync(figuresFile)
  ? readFileSync(figuresFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(dir, { recursive: true, force: true });
console.log(`\nran: ${timings.join(", ")}`);
console.log(`on: ${describeMachine()}`);
printFigures(rows, "summary");
const missed = rows.filter((r) => r.ok === "NO");
if (missed.length) console.log(`\n${missed.length} target(s) missed: ${missed.map((r) => r.measure).join("; ")}`);
process.exit(failed || interrupted || missed.length ? 1 : 0);

function describeMachine() {
  let commit = "unknown commit";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "packages", "apps"], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    });
    if (dirty) commit += " + uncommitted changes";
  } catch {
    // not a git checkout
  }
  return `${new Date().toISOString()}, ${commit}, node ${process.version}, ${availableParallelism()} CPUs`;
}
