#!/usr/bin/env node
// What each test file costs in CPU: on two cores `npm test`'s parallel phase is CPU-bound, so a
// file's share of it is the CPU time of its whole process tree (user + sys: the vitest worker,
// sshd and the sessions it waits for, a browser), not its wall time beside the other files.
// Runs each file alone (`npx vitest run <file>`, so vitest's own start is in every figure, as a
// fresh worker per file is in the suite) and prints a table, most expensive first.
//
//   node bench/test-costs.mjs apps/server src/system/app.test.ts src/system/cloud.test.ts
//   node bench/test-costs.mjs packages/engine            (every test file of the package)
//   node bench/test-costs.mjs packages/engine --project engine src/foo.test.ts
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const [dir, ...rest] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node bench/test-costs.mjs <package dir> [--project name] [test files...]");
  process.exit(2);
}
const cwd = resolve(dir);
const projectAt = rest.indexOf("--project");
const project = projectAt >= 0 ? ["--project", rest.splice(projectAt, 2)[1]] : [];
const files = rest.length
  ? rest
  : readdirSync(join(cwd, "src"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => join("src", f))
      .sort();

const rows = [];
for (const file of files) {
  // GNU time reports the rusage of the whole tree it waited for: the figures the table sums.
  const r = spawnSync("/usr/bin/time", ["-f", "@@ %e %U %S", "npx", "vitest", "run", ...project, "--reporter=dot", file], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const m = /@@ ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const [wall, user, sys] = m ? m.slice(1).map(Number) : [Number.NaN, Number.NaN, Number.NaN];
  const row = { file, cpu: user + sys, wall, ok: r.status === 0 };
  rows.push(row);
  // Why it failed (a timeout on a busy machine, often): its last lines.
  if (!row.ok) console.error(`${r.stdout}\n${r.stderr}`.trim().split("\n").slice(-20).join("\n"));
  console.error(`${row.cpu.toFixed(1).padStart(7)} s cpu ${wall.toFixed(1).padStart(7)} s wall ${row.ok ? "  " : "✗ "}${file}`);
}
rows.sort((a, b) => b.cpu - a.cpu);
const total = rows.reduce((s, r) => s + r.cpu, 0);
console.log(
  `\n${dir}: ${rows.length} files, ${total.toFixed(0)} s of CPU (load ${execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).split(" ")[0]})`,
);
console.log("    cpu s   wall s  file");
for (const r of rows) console.log(`${r.cpu.toFixed(1).padStart(9)} ${r.wall.toFixed(1).padStart(8)}  ${r.ok ? "" : "(failed) "}${r.file}`);
