import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestSchema } from "@benchwright/testing";

const CLI = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");
const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

export interface BenchwrightProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>/api/v1` for `serve`; empty for `worker`. */
  api: string;
  /** Every line it logged. */
  logs: string[];
  /** SIGTERM and wait; SIGKILL if it does not exit within `ms`. */
  stop(ms?: number): Promise<number | null>;
  kill(): Promise<void>;
}

/**
 * Starts `benchwright serve` or `benchwright worker` (the built CLI) as a process of its own,
 * with the given environment on top of this one's (and `nodeArgs` for node itself), and waits until it says it is ready.
 */
export async function startProcess(command: "serve" | "worker", env: Record<string, string>, nodeArgs: string[] = []): Promise<BenchwrightProcess> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, command], {
    // It is ready when it logs "listening" (or "working"): an inherited LOG_LEVEL above info would hide that.
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const api = await new Promise<string>((resolveReady, reject) => {
    // Not started in time: it is killed, not left running after the test. A bound, not a wait:
    // alone a start takes 2-6 s, but on two cores beside the other test files a PGlite start
    // (and a killed one's recovery) took over 30 s in CI.
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} did not start:\n${logs.join("\n")}`));
    }, 90_000);
    let buffer = "";
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      buffer += text;
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        logs.push(line);
        const entry = safeJson(line);
        if (entry?.msg === "listening") {
          clearTimeout(timer);
          resolveReady(String(entry.url).replace(/\/$/, ""));
        } else if (entry?.msg === "working") {
          clearTimeout(timer);
          resolveReady("");
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before it was ready:\n${logs.join("\n")}`));
    });
  });
  return {
    child,
    api,
    logs,
    async stop(ms = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

function safeJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Servers that share one PostgreSQL, as a deployment's do; `close` stops them and drops their schema and dirs. */
export interface ServersOnPostgres {
  /** Every server started, in order: `add`'s too, and those since killed (their logs stay). */
  servers: BenchwrightProcess[];
  /** One more server on the same schema (a restart of one that was killed, say). */
  add(): Promise<BenchwrightProcess>;
  close(): Promise<void>;
}

/**
 * `count` `serve` processes on one fresh PostgreSQL schema, sharing a secret key and the
 * repository's configuration, each with a data dir of its own, with `env` on top (and `nodeArgs`
 * for node itself, `add`'s too).
 */
export async function serversOnPostgres(count: number, env: Record<string, string>, nodeArgs: string[] = []): Promise<ServersOnPostgres> {
  const schema = await createTestSchema();
  const dirs: string[] = [];
  const shared = { DATABASE_URL: schema.url, BENCHWRIGHT_SECRET_KEY: randomBytes(32).toString("base64"), BENCHWRIGHT_CONFIG_DIR: REPO_CONFIG, ...env };
  const start = () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-servers-"));
    dirs.push(dataDir);
    return startProcess("serve", { ...shared, BENCHWRIGHT_DATA_DIR: dataDir }, nodeArgs);
  };
  const started = await Promise.allSettled(Array.from({ length: count }, start));
  const servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const add = async () => {
    const server = await start();
    servers.push(server);
    return server;
  };
  const close = async () => {
    await Promise.all(servers.map((p) => p.kill()));
    await schema.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { servers, add, close };
}
