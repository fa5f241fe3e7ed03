// From a fresh clone to the server's first answer, as a new user goes: `git clone` of this
// repository (its committed HEAD, into a temp dir), `npm ci`, then `npm start`; timed from
// the end of `npm ci` to the first HTTP answer of GET /api/v1/benchmarks/ (any status), target
// <= 30 s. Also printed: npm ci's own time, and when /ui/ first answers 200 (the dashboard is
// built once the server answers). The clone and its data dir are removed at the end.
//
// Usage: node bench/fresh-start.mjs [--ui-wait-seconds=180]
// It needs the npm registry (npm ci), nothing else; on a loaded machine the figure is the load's too.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { failure, figure } from "./harness/figures.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";
import { freePort } from "./harness/server-process.mjs";
import { sleep } from "./harness/timing.mjs";

const opts = flags({ uiWaitSeconds: 180 });
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TARGET_S = 30;

function runQuiet(command, args, cwd) {
  const run = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${run.status}: ${run.stderr.slice(-2000)}`);
}

/** Polls `url` until it answers (any status): the ms from `since`. */
async function firstAnswer(url, since, isDone, ok = () => true, limitMs = 600_000) {
  while (Date.now() - since < limitMs) {
    if (isDone()) throw new Error(`npm start ended before ${url} answered`);
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status && ok(status)) return Date.now() - since;
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${limitMs / 1000} s`);
}

await main(
  async (defer) => {
    const dir = tempDir(defer, "fresh");
    const clone = join(dir, "benchwright");
    console.log(`cloning ${ROOT} into ${clone}`);
    runQuiet("git", ["clone", "--quiet", ROOT, clone]);
    const ciStart = Date.now();
    runQuiet("npm", ["ci", "--no-audit", "--no-fund"], clone);
    const ciEnd = Date.now();
    figure({ measure: "npm ci of a fresh clone", now: (ciEnd - ciStart) / 1000, unit: "s" });

    const port = await freePort();
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BENCHWRIGHT_") && k !== "DATABASE_URL" && k !== "LOG_LEVEL"));
    Object.assign(env, { HOST: "127.0.0.1", PORT: String(port), BENCHWRIGHT_DATA_DIR: join(dir, "data") });
    // Its own process group, so that stopping it stops npm, the server and a dashboard build alike.
    const start = spawn("npm", ["start"], { cwd: clone, env, stdio: ["ignore", "ignore", "pipe"], detached: true });
    let ended = false;
    let stderr = "";
    start.stderr.setEncoding("utf8").on("data", (t) => (stderr = (stderr + t).slice(-4000)));
    const exited = new Promise((r) => start.once("exit", () => r((ended = true))));
    defer(async () => {
      if (ended) return;
      process.kill(-start.pid, "SIGTERM");
      const timer = setTimeout(() => !ended && process.kill(-start.pid, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    });

    const base = `http://127.0.0.1:${port}`;
    try {
      const answerMs = await firstAnswer(`${base}/api/v1/benchmarks/`, ciEnd, () => ended);
      figure({
        measure: "npm start: end of npm ci to the first answer",
        now: answerMs / 1000,
        unit: "s",
        target: `<= ${TARGET_S} s`,
        ok: (_r, now) => now <= TARGET_S,
      });
    } catch (e) {
      failure("npm start: end of npm ci to the first answer", new Error(`${e.message}\n${stderr}`));
      return;
    }
    try {
      const uiMs = await firstAnswer(
        `${base}/ui/`,
        ciEnd,
        () => ended,
        (status) => status === 200,
        opts.uiWaitSeconds * 1000,
      );
      figure({ measure: "npm start: end of npm ci to /ui/ served", now: uiMs / 1000, unit: "s" });
    } catch (e) {
      failure("npm start: /ui/ served", new Error(`${e.message}\n${stderr}`));
    }
  },
  { limitSeconds: 1200 },
);
