// Shared parts of the bench scripts: the server and its bare Express reference as child
// processes on loopback, the private sshd, PostgreSQL schemas, timing and the figures table.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import ssh2 from "ssh2";
import { createTestSchema, startSshd } from "@benchwright/testing";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER_MAIN = join(ROOT, "apps/server/dist/main.js");
const BARE_MAIN = fileURLToPath(new URL("./bare-express.mjs", import.meta.url));

// ---- running a bench script

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
    printFigures(figures);
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
  printFigures(figures);
  // Whatever handle a failure left open (a timer, a socket), the script ends here.
  process.exit();
}

/** `--name=value` flags over defaults; a value takes the type of its default. */
export function flags(defaults) {
  const out = { ...defaults };
  for (const arg of process.argv.slice(2)) {
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`Unknown argument ${arg}; flags: ${Object.keys(defaults).map((k) => `--${k}`).join(" ")}`);
    const key = m[1].replace(/-(\w)/g, (_, c) => c.toUpperCase());
    if (!(key in defaults)) throw new Error(`Unknown flag --${m[1]}; flags: ${Object.keys(defaults).map((k) => `--${k}`).join(" ")}`);
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

// ---- figures: measure | now | reference | ratio | target | ok?

const figures = [];

/**
 * Records one figure. `now` and `ref` are numbers in `unit`; the ratio is now / ref. `ok`
 * judges the figure against its target (given the ratio and now), or is absent without one.
 */
export function figure({ measure, now, ref, unit, refLabel, target = "", ok, digits }) {
  const ratio = Number.isFinite(now) && Number.isFinite(ref) && ref !== 0 ? now / ref : NaN;
  const row = {
    measure,
    now: formatValue(now, unit, digits),
    reference: Number.isFinite(ref) ? `${formatValue(ref, unit, digits)}${refLabel ? ` (${refLabel})` : ""}` : refLabel ?? "",
    ratio: Number.isFinite(ratio) ? `${ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}x` : "",
    target,
    ok: ok === undefined ? "" : ok(ratio, now) ? "yes" : "NO",
  };
  console.log(`  -> ${row.measure}: ${row.now}${row.reference ? ` vs ${row.reference}` : ""}${row.ratio ? ` = ${row.ratio}` : ""}${target ? ` (target ${target}: ${row.ok})` : ""}`);
  record(row);
}

/** Records that a measure could not be taken (the script goes on with the next one). */
export function failure(measure, error) {
  const reason = String(error?.message ?? error).split("\n")[0].slice(0, 160);
  console.error(`${measure} failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
  record({ measure, now: `failed: ${reason}`, reference: "", ratio: "", target: "", ok: "NO" });
}

function record(row) {
  figures.push(row);
  // bench/all.mjs collects every script's figures into one table.
  if (process.env.BENCH_FIGURES_FILE) appendFileSync(process.env.BENCH_FIGURES_FILE, JSON.stringify(row) + "\n");
}

function formatValue(value, unit, digits) {
  if (!Number.isFinite(value)) return "n/a";
  const d = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return `${value.toFixed(d)} ${unit}`;
}

export function printFigures(rows, title = "figures") {
  if (rows.length === 0) return;
  const columns = ["measure", "now", "reference", "ratio", "target", "ok"];
  const head = { measure: "measure", now: "now", reference: "reference", ratio: "ratio", target: "target", ok: "ok?" };
  const width = Object.fromEntries(columns.map((c) => [c, Math.max(...[head, ...rows].map((r) => String(r[c]).length))]));
  const line = (r) => "| " + columns.map((c) => String(r[c]).padEnd(width[c])).join(" | ") + " |";
  console.log(`\n${title}:`);
  console.log(line(head));
  console.log("|" + columns.map((c) => "-".repeat(width[c] + 2)).join("|") + "|");
  for (const r of rows) console.log(line(r));
}

// ---- statistics and timing

function quantile(samples, q) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export const median = (samples) => quantile(samples, 0.5);

/** Milliseconds each of `n` sequential calls of `fn` takes. */
export async function timeEach(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  return samples;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const MiB = 2 ** 20;

/** Resident set size (or its peak, `VmHWM`) of a process, in bytes, from /proc. */
export function residentBytes(pid, field = "VmRSS") {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(m[1]) * 1024;
}

// ---- HTTP

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One request, over a keep-alive connection unless `fresh`; resolves with status, headers and the body's bytes. */
export function httpRequest(method, url, { body, headers = {}, fresh = false } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(url, {
      method,
      agent: fresh ? false : agent,
      headers: payload ? { ...headers, "content-type": "application/json", "content-length": payload.length } : headers,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.end(payload);
  });
}

/**
 * `concurrency` clients GET `url` back to back for `seconds` (after a warm-up): requests per
 * second and latency quantiles in ms. Every answer must be a 200.
 */
export async function loadTest(url, { seconds = 3, concurrency = 16, warmupSeconds = 0.5 } = {}) {
  const phase = async (ms) => {
    const until = performance.now() + ms;
    const latencies = [];
    let bytes = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          const res = await httpRequest("GET", url);
          if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.body.toString().slice(0, 300)}`);
          latencies.push(performance.now() - t);
          bytes = res.body.length;
        }
      }),
    );
    return { latencies, bytes };
  };
  await phase(warmupSeconds * 1000);
  const started = performance.now();
  const { latencies, bytes } = await phase(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  return { rps: latencies.length / elapsed, p50: median(latencies), p99: quantile(latencies, 0.99), requests: latencies.length, bytes };
}

/**
 * A JSON API client of the server at `api` (…/api/v1): throws on any answer but 2xx; on a
 * 5xx the error also holds the server's last log lines (which never hold a secret).
 */
function apiClient(api, serverLog = () => "") {
  const call = async (method, path, body) => {
    const res = await httpRequest(method, api + path, { body });
    const text = res.body.toString();
    if (res.status < 200 || res.status > 299) {
      const log = res.status >= 500 ? `\nserver log:\n${serverLog().split("\n").slice(-6).join("\n")}` : "";
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}${log}`);
    }
    return text ? JSON.parse(text) : undefined;
  };
  return call;
}

/** Runs `fn` over `items`, at most `limit` at once; resolves with settled results in order. */
export async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        try {
          results[i] = { ok: true, value: await fn(items[i], i) };
        } catch (error) {
          results[i] = { ok: false, error };
        }
      }
    }),
  );
  return results;
}

// ---- child processes: the real server and the bare Express reference

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
export function serverEnv({ dataDir, configDir, databaseUrl, port = 0 }) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("BENCHWRIGHT_") && k !== "DATABASE_URL"));
  // The harness waits for the "listening" line, which an inherited LOG_LEVEL above info would hide.
  Object.assign(env, { HOST: "127.0.0.1", PORT: String(port), BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: configDir, LOG_LEVEL: "info" });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
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
 * Spawns the server (`which`: "server" or "bare"), which logs JSON lines on stderr, one of
 * them `{"msg":"listening","url":...}` (pino's; bare-express writes the same shape): `listening` resolves with that url (without
 * /api/v1). The caller can `stop` it early; `defer` stops it in any case.
 */
export function spawnServer(defer, which, env) {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [which === "bare" ? BARE_MAIN : SERVER_MAIN], { env, stdio: ["ignore", "ignore", "pipe"] });
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
      const line = tail.split("\n").find((l) => l.includes('"listening"'));
      if (!line) return;
      listeningSeen = true;
      resolve(JSON.parse(line).url.replace(/\/api\/v1\/?$/, ""));
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

// ---- the private sshd and PostgreSQL

/**
 * One private sshd from the engine's test harness. `stock` is false while the harness
 * overrides MaxSessions (OpenSSH's default is 10 channels per connection): figures over
 * SSH then do not show what a stock host allows, and the script says so.
 */
export async function benchSshd(defer) {
  const sshd = await startSshd();
  defer(() => sshd.stop());
  const config = readFileSync(join(dirname(sshd.privateKeyPath), "sshd_config"), "utf8");
  const maxSessions = /^\s*MaxSessions\s+(\d+)/im.exec(config)?.[1];
  const stock = maxSessions === undefined;
  if (!stock) console.log(`WARNING: the harness sshd sets MaxSessions ${maxSessions} (stock: 10): figures over SSH are NOT on stock limits`);
  return { ...sshd, stock, limitsNote: stock ? "" : ` [sshd MaxSessions ${maxSessions}, not stock]` };
}

/** A session body for an existing-vm session on the harness sshd. */
export function sshSessionBody(sshd) {
  return {
    config: {
      provider: { class: "existing-vm", name: "bench" },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  };
}

export const LOCAL_SESSION = { provider: "local", service: "default" };

/** A throwaway schema on the test PostgreSQL, dropped by `defer`. */
export async function postgresSchema(defer) {
  const schema = await createTestSchema();
  defer(() => schema.drop());
  return schema.url;
}

/**
 * A warm ssh2 connection to the harness sshd (its host key checked): the reference client.
 * With Nagle's algorithm on (ssh2's default) every exec waits for delayed ACKs (~90 ms instead
 * of ~2 ms on loopback): the reference is the best a client can do, so it turns it off, unless
 * `ssh2Defaults` asks for the client as ssh2 makes it (as the issue measured its reference).
 */
export async function ssh2Connection(sshd, { ssh2Defaults = false } = {}) {
  const client = new ssh2.Client();
  if (!ssh2Defaults) client.on("connect", () => client.setNoDelay(true));
  await new Promise((resolve, reject) => {
    client.once("ready", resolve).once("error", reject);
    client.connect({
      host: sshd.host,
      port: sshd.port,
      username: sshd.username,
      privateKey: sshd.privateKey,
      hostVerifier: (key) => `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}` === sshd.hostKeyFingerprint,
    });
  });
  return {
    /** Runs `command`, its stdout piped into the writable `stdout` (dropped without one); resolves with the exit code. */
    exec(command, stdout) {
      return new Promise((resolve, reject) => {
        client.exec(command, (err, stream) => {
          if (err) return reject(err);
          const closed = new Promise((r) => stream.once("close", (code) => r(code)));
          stream.stderr.resume();
          if (!stdout) stream.resume();
          const written = stdout ? pipeline(stream, stdout) : undefined;
          Promise.all([closed, written]).then(([code]) => resolve(code), reject);
        });
      });
    },
    end: () => client.end(),
  };
}

/** Runs `bash -c <script>` locally, output dropped; resolves with the exit code. */
export function bash(script) {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
}
