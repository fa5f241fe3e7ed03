import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openDb } from "@benchwright/engine";
import { createTestSchema } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProcess, type BenchwrightProcess } from "../test-support/processes.js";

// Issue 27: a step on `local` printed the server's environment (its API token, the key that
// seals every credential, DATABASE_URL) into its log. A step gets the step protocol's
// environment only, on a server that runs steps itself and on a worker alike.

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");
const TOKEN = `token-${randomBytes(12).toString("hex")}`;
const KEY = randomBytes(32).toString("base64");
/** What no step may see: every variable of the server's own. */
const SERVER_ONLY = /^(BENCHWRIGHT_|DATABASE_URL)/m;

describe("the environment of a step on local", () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let configDir: string;
  const dirs: string[] = [];
  const processes: BenchwrightProcess[] = [];

  const start = async (command: "serve" | "worker", env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), "bw-step-env-"));
    dirs.push(dataDir);
    const p = await startProcess(command, {
      BENCHWRIGHT_DATA_DIR: dataDir,
      BENCHWRIGHT_CONFIG_DIR: configDir,
      BENCHWRIGHT_SECRET_KEY: KEY,
      BENCHWRIGHT_API_TOKEN: TOKEN,
      BENCHWRIGHT_PROBE: "server-only",
      ...env,
    });
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    schema = await createTestSchema();
    configDir = mkdtempSync(join(tmpdir(), "bw-step-env-config-"));
    dirs.push(configDir);
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    writeFileSync(
      join(configDir, "benchmarks", "envdump.yaml"),
      [
        "id: envdump",
        "tool_name: envdump",
        "parser: keyvalue",
        "scripts: {}",
        "workloads:",
        "  - id: env",
        "    workload_name: env",
        "    workload_description: Prints the step's environment",
        "    categories: [test]",
        "    scripts:",
        "      run: env | sort",
      ].join("\n") + "\n",
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await schema?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const call = async (server: BenchwrightProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(server.api + path, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, text, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
  };

  /** Runs `env | sort` on local through `server`: the run's answer and its log as the API serves them. */
  const runEnv = async (server: BenchwrightProcess) => {
    const session = await call(server, "POST", "/sessions/", { provider: "local", service: "default" });
    expect(session.status).toBe(200);
    const execution = await call(server, "POST", `/sessions/${session.body.id}/executions/`, { tool: "envdump", workload: "env" });
    expect(execution.status).toBe(200);
    const id = execution.body.id as string;
    expect((await call(server, "POST", `/executions/${id}/prepare`)).status).toBe(200);
    const answer = await call(server, "POST", `/executions/${id}/run`);
    const log = await call(server, "GET", `/executions/${id}/logs?step=run`);
    return { id, answer, log: log.text };
  };

  const expectStepEnvironmentOnly = (text: string) => {
    expect(text).not.toMatch(SERVER_ONLY);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("server-only");
    expect(text).not.toContain(schema.url);
  };

  it("holds no variable of the server's on a server that runs its steps itself", async () => {
    const server = await start("serve", {});
    const { answer, log } = await runEnv(server);
    // The step protocol's own variables are there: the dump did run.
    expect(log).toMatch(/^BW_STEP=run$/m);
    expect(log).toMatch(/^PATH=/m);
    expectStepEnvironmentOnly(log);
    expectStepEnvironmentOnly(answer.text);
  }, 60_000);

  it("holds no variable of the server's on a worker, nor in the log's chunks in PostgreSQL", async () => {
    const server = await start("serve", { DATABASE_URL: schema.url, BENCHWRIGHT_WORKER: "false" });
    await start("worker", { DATABASE_URL: schema.url });
    const { id, answer, log } = await runEnv(server);
    expect(log).toMatch(/^BW_STEP=run$/m);
    expectStepEnvironmentOnly(log);
    expectStepEnvironmentOnly(answer.text);
    const db = await openDb({ databaseUrl: schema.url });
    try {
      const chunks = await db.query<{ data: Buffer }>("SELECT data FROM log_chunks WHERE execution_id = $1 ORDER BY start_offset", [id]);
      const stored = Buffer.concat(chunks.map((r) => Buffer.from(r.data))).toString("utf8");
      expect(stored).toMatch(/^BW_STEP=run$/m);
      expectStepEnvironmentOnly(stored);
    } finally {
      await db.close();
    }
  }, 90_000);
});
