// The real server and the bare Express reference as child processes on loopback, with the
// config dir and PostgreSQL schema they run on.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestSchema } from "@benchwright/testing";
import { apiClient, httpRequest } from "./http.mjs";
import { tempDir } from "./script.mjs";
import { sleep } from "./timing.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// The program an operator runs (`npm start` imports it), beside the server package's entry.
const SERVER_MAIN = fileURLToPath(new URL("./main.js", import.meta.resolve("@benchwright/server")));
// `benchwright-server worker`: steps only, no HTTP.
const SERVER_CLI = fileURLToPath(new URL("./cli.js", import.meta.resolve("@benchwright/server")));
const BARE_MAIN = fileURLToPath(new URL("../bare-express.mjs", import.meta.url));

/** A port the kernel says is free now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A copy of the repository's config dir, with extra benchmark definitions `{name: yaml}`. */
export function benchConfigDir(defer, benchmarks = {}) {
  const dir = tempDir(defer, "config");
  cpSync(join(ROOT, "config"), dir, { recursive: true });
  mkdirSync(join(dir, "benchmarks"), { recursive: true });
  for (const [name, text] of Object.entries(benchmarks)) writeFileSync(join(dir, "benchmarks", `${name}.yaml`), text);
  return dir;
}

/** The environment `main.js` reads (docs/configuration.md), nothing inherited that could change it. */
export function serverEnv({ dataDir, configDir, databaseUrl, port = 0, extra = {} }) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BENCHWRIGHT_") && k !== "DATABASE_URL"));
  // The harness waits for the "listening" line, which an inherited LOG_LEVEL above info would hide.
  Object.assign(env, {
    HOST: "127.0.0.1",
    PORT: String(port),
    BENCHWRIGHT_DATA_DIR: dataDir,
    BENCHWRIGHT_CONFIG_DIR: configDir,
    LOG_LEVEL: "info",
  });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // Settings of the script's own (BENCHWRIGHT_SECRET_KEY shared by several processes, BENCHWRIGHT_WORKER).
  return Object.assign(env, extra);
}

/**
 * Starts `node apps/server/dist/main.js` as a child, as an operator would, and waits for its
 * "listening" line. `port` 0 lets it pick one; `databaseUrl` unset means the embedded PGlite.
 */
export async function startServer(defer, options) {
  const child = spawnServer(defer, "server", serverEnv(options));
  const url = await child.listening;
  return { ...child, url, api: `${url}/api/v1`, call: apiClient(`${url}/api/v1`, child.stderrTail) };
}

/** Starts `benchwright-server worker` (`options` as startServer's) and waits for its "working" line. */
export async function startWorker(defer, options) {
  const child = spawnServer(defer, "worker", serverEnv(options));
  await child.listening;
  return child;
}

/** Starts bench/bare-express.mjs, which answers every GET with `body` (bytes) as `contentType`. */
export async function startBare(defer, options) {
  const child = spawnServer(defer, "bare", bareEnv(defer, options));
  const url = await child.listening;
  return { ...child, url };
}

export function bareEnv(defer, { body, contentType = "application/json; charset=utf-8", port = 0 }) {
  const file = join(tempDir(defer, "bare"), "body");
  writeFileSync(file, body);
  return { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: String(port), BARE_BODY_FILE: file, BARE_CONTENT_TYPE: contentType };
}

/**
 * Spawns the server (`which`: "server", "worker" or "bare"), which logs JSON lines on stderr, one of
 * them `{"msg":"listening","url":...}` (pino's; bare-express writes the same shape): `listening` resolves with that url (without
 * /api/v1); a worker's `{"msg":"working"}` resolves it with "". The caller can `stop` it early; `defer` stops it in any case.
 */
export function spawnServer(defer, which, env) {
  const spawnedAt = performance.now();
  const args = which === "bare" ? [BARE_MAIN] : which === "worker" ? [SERVER_CLI, "worker"] : [SERVER_MAIN];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  let tail = "";
  let listeningSeen = false;
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  let stopped;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(kill);
    })());
  defer(stop);
  const listening = new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (text) => {
      tail = (tail + text).slice(-4000);
      if (listeningSeen) return;
      const line = tail.split("\n").find((l) => l.includes(which === "worker" ? '"working"' : '"listening"'));
      if (!line) return;
      listeningSeen = true;
      resolve(which === "worker" ? "" : JSON.parse(line).url.replace(/\/api\/v1\/?$/, ""));
    });
    exited.then((how) => reject(new Error(`${which} exited (${how}) before listening: ${startError(tail)}\n${tail}`)));
  });
  listening.catch(() => {});
  return { pid: child.pid, spawnedAt, listening, exited, stop, stderrTail: () => tail };
}

/** The reason in the server's "cannot start" line, if it logged one. */
function startError(stderr) {
  for (const line of stderr.split("\n")) {
    try {
      const entry = JSON.parse(line);
      if (entry.msg === "cannot start") return entry.error;
    } catch {
      // not a JSON line
    }
  }
  return "see its output below";
}

/** Polls `url` until it answers 200: milliseconds from the spawn to that answer, and the answer. */
export async function firstAnswer(proc, url, timeoutMs = 30_000) {
  let gone = false;
  let last = "no answer";
  proc.exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`exited before answering ${url}: ${startError(proc.stderrTail())}\n${proc.stderrTail()}`);
    try {
      const res = await httpRequest("GET", url, { fresh: true });
      if (res.status === 200) return { ms: performance.now() - proc.spawnedAt, body: res.body, contentType: res.headers["content-type"] };
      last = `${res.status} ${res.body.toString().slice(0, 200)}`;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - proc.spawnedAt > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
    await sleep(2);
  }
}

/** A throwaway schema on the test PostgreSQL, dropped by `defer`. */
export async function postgresSchema(defer) {
  const schema = await createTestSchema();
  defer(() => schema.drop());
  return schema.url;
}
